import SQLiteDatabase

/// The stand-in name `ValueCoding` used before SQLiteDatabase landed. `ValueCoding` now speaks
/// `DatabaseValue` directly; this alias keeps code written against the stand-in compiling
/// (its bridging between the two becomes the identity). Remove it with its last use.
typealias StorageValue = DatabaseValue
