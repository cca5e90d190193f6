/// The AppContainer module (being built).
public enum AppContainerModule {}
