import Foundation
import ObjectGraphCLI

exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
