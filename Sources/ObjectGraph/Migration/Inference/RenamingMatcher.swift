/// Pairs the elements of a destination model with those of a source model the way Core Data's
/// inferred mapping does: by renaming identifier (Xcode's "Renaming ID", which defaults to the
/// name), so an element renamed in the destination is found under its old name.
///
/// Candidates are tried in tiers, each source element taken at most once: destination elements
/// that declare a renaming identifier first, matched to the source element with the same
/// identifier (or the same identifier-or-name), then the rest by identifier-or-name, then by plain
/// name.
struct RenamingMatcher {
    /// One element to match: its name and renaming identifier.
    struct Element {
        /// The element's name.
        var name: String
        /// Its renaming identifier, when set.
        var renamingIdentifier: String?

        /// The canonical name: the renaming identifier, or the name.
        var key: String { renamingIdentifier ?? name }
    }

    /// The index of the matching source element for each destination element (absent: new).
    static func match(destinations: [Element], sources: [Element]) -> [Int: Int] {
        var taken = Set<Int>()
        var result: [Int: Int] = [:]
        let explicit = destinations.indices.filter { destinations[$0].renamingIdentifier != nil }
        let implicit = destinations.indices.filter { destinations[$0].renamingIdentifier == nil }
        let tiers: [(Element, Element) -> Bool] = [
            { $0.key == $1.key }, { $0.key == $1.name }, { $0.name == $1.name },
        ]
        for order in [explicit, implicit] {
            for tier in tiers {
                for destination in order where result[destination] == nil {
                    let found = sources.indices.first {
                        !taken.contains($0) && tier(destinations[destination], sources[$0])
                    }
                    if let found {
                        result[destination] = found
                        taken.insert(found)
                    }
                }
            }
        }
        return result
    }
}
