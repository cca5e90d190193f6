/// The Preferences module (being built).
public enum PreferencesModule {}
