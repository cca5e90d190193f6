// libxml2's headers include ICU's when libxml2 was built with ICU; Foundation brings its own
// ICU module, and the two definitions clash. ObjectGraph never uses libxml2's ICU structures
// (only pointers to the encoding handler), so ICU is hidden from these headers.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlerror.h>
