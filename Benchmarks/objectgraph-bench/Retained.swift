/// Keeps values alive until the runner holding it is released, after timing: what an
/// operation read (or deleted) is freed outside the clock on both sides alike.
final class Retained {
    var values: [Any] = []
}
