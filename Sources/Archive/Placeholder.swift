/// The Archive module (being built).
public enum ArchiveModule {}
