/// The SQLiteDatabase module (being built).
public enum SQLiteDatabaseModule {}
