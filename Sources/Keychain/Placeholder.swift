/// The Keychain module (being built).
public enum KeychainModule {}
