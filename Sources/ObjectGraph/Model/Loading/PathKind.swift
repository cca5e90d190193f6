import SQLiteDatabase

/// What a path names on disk: the `SQLiteDatabase` module's `PathKind`, which every model
/// and store path is checked with before it is opened (SQLite's own opens use it too).
public typealias PathKind = SQLiteDatabase.PathKind
