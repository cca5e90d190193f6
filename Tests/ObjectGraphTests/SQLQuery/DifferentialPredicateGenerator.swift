import Foundation

@testable import ObjectGraph

/// Generates random predicates and sort descriptors over the differential model, covering the
/// grammar the SQL compiler translates (and a few fragments it must reject).
struct DifferentialPredicateGenerator {
    enum Kind: CaseIterable { case string, number, date, uuid, data, uri }

    struct Scalar {
        let path: String
        let kind: Kind
    }

    /// A to-many path and the scalar keys of its elements.
    struct Collection {
        let path: String
        let element: String
    }

    var random: SeededGenerator
    let data: DifferentialDataSet

    init(seed: UInt64, data: DifferentialDataSet) {
        random = SeededGenerator(seed: seed)
        self.data = data
    }

    // MARK: - The model seen by the generator

    static let itemScalars: [Scalar] = [
        Scalar(path: "name", kind: .string), Scalar(path: "small", kind: .number),
        Scalar(path: "count", kind: .number), Scalar(path: "big", kind: .number),
        Scalar(path: "amount", kind: .number), Scalar(path: "ratio", kind: .number),
        Scalar(path: "price", kind: .number), Scalar(path: "flag", kind: .number),
        Scalar(path: "when", kind: .date), Scalar(path: "uuid", kind: .uuid),
        Scalar(path: "blob", kind: .data), Scalar(path: "link", kind: .uri),
    ]

    static func scalars(of entity: String, depth: Int = 2) -> [Scalar] {
        switch entity {
        case "Item", "Gadget", "Widget":
            var result = itemScalars
            if entity == "Gadget" {
                result += [
                    Scalar(path: "power", kind: .number), Scalar(path: "label", kind: .string),
                ]
            }
            if entity == "Widget" { result.append(Scalar(path: "weight", kind: .number)) }
            if depth > 0 {
                result += scalars(of: "Team", depth: depth - 1).map {
                    Scalar(path: "team." + $0.path, kind: $0.kind)
                }
                result += [
                    Scalar(path: "parent.name", kind: .string),
                    Scalar(path: "parent.count", kind: .number),
                    Scalar(path: "parent.when", kind: .date),
                    Scalar(path: "parent.parent.amount", kind: .number),
                    Scalar(path: "parent.team.rank", kind: .number),
                    Scalar(path: "buddy.name", kind: .string),
                    Scalar(path: "buddy.buddy.count", kind: .number),
                ]
            }
            return result
        case "Team":
            var result = [
                Scalar(path: "name", kind: .string), Scalar(path: "rank", kind: .number),
            ]
            if depth > 0 { result.append(Scalar(path: "league.name", kind: .string)) }
            return result
        case "Tag":
            return [Scalar(path: "name", kind: .string), Scalar(path: "score", kind: .number)]
        case "League":
            return [Scalar(path: "name", kind: .string)]
        default:
            return []
        }
    }

    /// To-one paths to objects, with the destination entity.
    static func objects(of entity: String) -> [(path: String, entity: String)] {
        switch entity {
        case "Item", "Gadget", "Widget":
            return [
                ("SELF", "Item"), ("team", "Team"), ("parent", "Item"), ("team.league", "League"),
                ("parent.team", "Team"), ("buddy", "Item"),
            ]
        case "Team": return [("SELF", "Team"), ("league", "League")]
        case "Tag": return [("SELF", "Tag")]
        default: return [("SELF", entity)]
        }
    }

    static func collections(of entity: String) -> [Collection] {
        switch entity {
        case "Item", "Gadget", "Widget":
            return [
                Collection(path: "tags", element: "Tag"),
                Collection(path: "children", element: "Item"),
                Collection(path: "team.members", element: "Item"),
                Collection(path: "children.tags", element: "Tag"),
                Collection(path: "parent.children", element: "Item"),
                Collection(path: "team.league.featured", element: "Item"),
            ]
        case "Team":
            return [
                Collection(path: "members", element: "Item"),
                Collection(path: "members.tags", element: "Tag"),
                Collection(path: "league.teams", element: "Team"),
                Collection(path: "league.featured", element: "Item"),
                Collection(path: "members.children", element: "Item"),
            ]
        case "Tag":
            return [Collection(path: "items", element: "Item")]
        case "League":
            return [Collection(path: "teams", element: "Team")]
        default:
            return []
        }
    }

    static let sortKeys: [String: [String]] = [
        "Item": [
            "name", "count", "amount", "when", "flag", "uuid", "blob", "link", "price", "small",
            "team.name", "team.rank", "parent.name", "team.league.name", "big", "ratio",
            "buddy.name",
        ],
        "Team": ["name", "rank", "league.name"],
        "Tag": ["name", "score"],
    ]

    // MARK: - Fetches

    struct Fetch {
        var entity: String
        var includesSubentities: Bool
        var predicate: ObjectGraph.Predicate
        var sort: [ObjectGraph.SortDescriptor]
        var offset: Int
        var limit: Int
    }

    mutating func fetch() -> Fetch {
        let roll = Double.random(in: 0..<1, using: &random)
        let entity: String
        var includesSubentities = true
        switch roll {
        case ..<0.45: entity = "Item"
        case ..<0.6: entity = "Gadget"
        case ..<0.75: entity = "Widget"
        case ..<0.9: entity = "Team"
        case ..<0.97: entity = "Tag"
        default:
            entity = "Item"
            includesSubentities = false
        }
        let predicate = self.predicate(entity, depth: 2)
        var sort: [ObjectGraph.SortDescriptor] = []
        let keys = Self.sortKeys[entity == "Gadget" || entity == "Widget" ? "Item" : entity] ?? []
        if !keys.isEmpty {
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                sort.append(
                    ObjectGraph.SortDescriptor(
                        random.pick(keys), ascending: random.chance(0.5),
                        comparison: random.pick([
                            .standard, .caseInsensitive, .localized, .localizedStandard,
                        ])))
            }
        }
        let offset = random.chance(0.3) ? Int.random(in: 1...20, using: &random) : 0
        let limit = random.chance(0.4) ? Int.random(in: 1...25, using: &random) : 0
        return Fetch(
            entity: entity, includesSubentities: includesSubentities, predicate: predicate,
            sort: sort, offset: offset, limit: limit)
    }

    // MARK: - Predicates

    mutating func predicate(_ entity: String, depth: Int, variable: String? = nil)
        -> ObjectGraph.Predicate
    {
        let roll = Double.random(in: 0..<1, using: &random)
        if depth > 0, roll < 0.25 {
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                return .and([
                    predicate(entity, depth: depth - 1, variable: variable),
                    predicate(entity, depth: depth - 1, variable: variable),
                ])
            case 1:
                return .or([
                    predicate(entity, depth: depth - 1, variable: variable),
                    predicate(entity, depth: depth - 1, variable: variable),
                ])
            default:
                return .not(predicate(entity, depth: depth - 1, variable: variable))
            }
        }
        switch roll {
        case ..<0.55: return scalarComparison(entity, variable: variable)
        case ..<0.65: return quantified(entity, variable: variable)
        case ..<0.74: return aggregate(entity, variable: variable)
        case ..<0.80 where variable == nil || depth > 0:
            return subquery(entity, depth: depth, outer: variable)
        case ..<0.88: return objectComparison(entity, variable: variable)
        case ..<0.91: return arithmetic(entity, variable: variable)
        case ..<0.94 where entity != "League": return function(entity, variable: variable)
        case ..<0.95: return .constant(random.chance(0.5))
        default: return oddity(entity, variable: variable)
        }
    }

    private func key(_ path: String, _ variable: String?) -> ObjectGraph.Expression {
        if path == "SELF" {
            return variable.map { .variable($0) } ?? .evaluatedObject
        }
        if let variable { return .member(.variable(variable), PredicateKeyPath(path)) }
        return .keyPath(PredicateKeyPath(path))
    }

    private mutating func options(_ kind: Kind) -> ComparisonOptions {
        guard kind == .string else { return random.chance(0.1) ? .caseInsensitive : [] }
        return random.pick([
            [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive],
        ])
    }

    private mutating func operators(_ kind: Kind) -> [ComparisonOperator] {
        switch kind {
        case .string:
            return [
                .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual,
                .beginsWith, .endsWith, .contains, .like, .matches, .in, .in, .between,
            ]
        case .number, .date:
            return [
                .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual,
                .in, .between,
            ]
        case .uuid, .data, .uri:
            return [.equal, .notEqual, .in]
        }
    }

    mutating func constant(_ kind: Kind) -> Value {
        if random.chance(0.08) { return .null }
        switch kind {
        case .string:
            if random.chance(0.7) { return .string(random.pick(data.strings)) }
            let base = random.pick(data.strings)
            let characters = Array(base)
            if characters.count > 1, random.chance(0.7) {
                let start = Int.random(in: 0..<characters.count, using: &random)
                let end = Int.random(in: start...characters.count, using: &random)
                let part = String(characters[start..<end])
                return .string(random.chance(0.3) ? part.uppercased() : part)
            }
            return .string(
                random.pick([
                    "ALPHA", "cafe", "CAFE", "Ω", "file", "a", "Z", "é", "Jo", "Ja", "x", "e",
                    "a\r", "J",
                ]))
        case .number:
            switch Int.random(in: 0..<6, using: &random) {
            case 0: return .integer(Int64.random(in: -20...20, using: &random))
            case 1: return .double(Double(Int.random(in: -40...40, using: &random)) / 4)
            case 2: return .bool(random.chance(0.5))
            case 3: return .decimal(Decimal(Double(Int.random(in: -40...40, using: &random)) / 8))
            case 4:
                return random.pick([
                    .integer(9_007_199_254_740_993), .double(9_007_199_254_740_992),
                    .double(1e15), .integer(1 << 40), .double(-0.5),
                ])
            default: return .integer(Int64.random(in: -3...3, using: &random))
            }
        case .date:
            if random.chance(0.7) { return .date(random.pick(data.dates)) }
            return .date(
                Date(
                    timeIntervalSinceReferenceDate: Double(
                        Int.random(in: -400...400, using: &random)) * 86_400))
        case .uuid: return .uuid(random.pick(data.uuids))
        case .data: return .data(random.pick(data.blobs))
        case .uri: return .uri(random.pick(data.urls))
        }
    }

    private mutating func likePattern() -> String {
        var characters = Array(random.pick(data.strings))
        for index in characters.indices where random.chance(0.3) {
            characters[index] = random.chance(0.5) ? "*" : "?"
        }
        var pattern = String(characters)
        if random.chance(0.3) { pattern = "*" + pattern }
        if random.chance(0.3) { pattern += "*" }
        if random.chance(0.1) { pattern = random.pick(["%", "_", "a%b_c", "*%*", "*_*", "\\*"]) }
        return pattern
    }

    private mutating func regex() -> String {
        random.pick([
            "a.*", ".*[0-9]+", "[A-Z].*", "(?i)caf.*", ".*é.*", "alpha|beta", "", ".*", "\\w+",
            ".*\\s.*", "[^a-z]*", "file\\d+", ".", "Ω.*", ".*%.*", "(?i)ZETA",
        ])
    }

    mutating func scalarComparison(_ entity: String, variable: String?) -> ObjectGraph.Predicate {
        let scalars = Self.scalars(of: entity)
        let scalar = random.pick(scalars)
        let left = key(scalar.path, variable)
        let op = random.pick(operators(scalar.kind))
        let options = options(scalar.kind)
        let right: ObjectGraph.Expression
        switch op {
        case .like:
            right = .constant(random.chance(0.05) ? .null : .string(likePattern()))
        case .matches:
            right = .constant(.string(regex()))
        case .in:
            if scalar.kind == .string, random.chance(0.3) {
                // Substring: `name IN "text"` and `"part" IN name`.
                if random.chance(0.5) {
                    return .comparison(
                        Comparison(left, .in, .constant(constant(.string)), options: options))
                }
                return .comparison(
                    Comparison(.constant(constant(.string)), .in, left, options: options))
            }
            right = .aggregate(
                (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    .constant(constant(scalar.kind))
                })
        case .between:
            right = .aggregate([.constant(constant(scalar.kind)), .constant(constant(scalar.kind))])
        default:
            if random.chance(0.15) {
                // Key against key of the same kind.
                let others = scalars.filter { $0.kind == scalar.kind }
                right = key(random.pick(others).path, variable)
            } else {
                right = .constant(constant(scalar.kind))
            }
        }
        if op != .between, op != .in, op != .matches, random.chance(0.15) {
            return .comparison(Comparison(right, Self.mirrored(op), left, options: options))
        }
        return .comparison(Comparison(left, op, right, options: options))
    }

    static func mirrored(_ op: ComparisonOperator) -> ComparisonOperator {
        switch op {
        case .lessThan: return .greaterThan
        case .lessThanOrEqual: return .greaterThanOrEqual
        case .greaterThan: return .lessThan
        case .greaterThanOrEqual: return .lessThanOrEqual
        case .beginsWith, .endsWith, .like, .matches, .contains: return op
        default: return op
        }
    }

    private mutating func objectID(of entity: String) -> Value {
        let candidates = data.objects.filter { object in
            switch entity {
            case "Item": return object.entity == "Gadget" || object.entity == "Widget"
            default: return object.entity == entity
            }
        }
        if candidates.isEmpty || random.chance(0.05) { return .null }
        return .objectID(random.pick(candidates).objectID)
    }

    mutating func objectComparison(_ entity: String, variable: String?) -> ObjectGraph.Predicate {
        let (path, target) = random.pick(Self.objects(of: entity))
        let left = key(path, variable)
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return .comparison(Comparison(left, .equal, .constant(.null)))
        case 1: return .comparison(Comparison(left, .notEqual, .constant(.null)))
        case 2:
            let ids = (0..<Int.random(in: 1...5, using: &random)).map { _ in
                ObjectGraph.Expression.constant(objectID(of: target))
            }
            return .comparison(Comparison(left, .in, .aggregate(ids)))
        case 3:
            // Another entity's ID never matches.
            let other = random.pick(["Tag", "League", "Team", "Item"])
            return .comparison(Comparison(left, .equal, .constant(objectID(of: other))))
        case 4:
            let (otherPath, otherTarget) = random.pick(Self.objects(of: entity))
            if otherTarget == target {
                return .comparison(
                    Comparison(
                        left, random.chance(0.5) ? .equal : .notEqual, key(otherPath, variable)))
            }
            return .comparison(Comparison(left, .equal, .constant(objectID(of: target))))
        default:
            return .comparison(
                Comparison(
                    left, random.chance(0.7) ? .equal : .notEqual,
                    .constant(objectID(of: target))))
        }
    }

    mutating func quantified(_ entity: String, variable: String?) -> ObjectGraph.Predicate {
        guard !Self.collections(of: entity).isEmpty else { return .constant(true) }
        let collection = random.pick(Self.collections(of: entity))
        if random.chance(0.2) {
            // Objects: ANY tags == id, tags CONTAINS id.
            let id = ObjectGraph.Expression.constant(objectID(of: collection.element))
            if random.chance(0.5) {
                return .comparison(
                    Comparison(key(collection.path, variable), .contains, id))
            }
            return .comparison(
                Comparison(key(collection.path, variable), .equal, id, modifier: .any))
        }
        let scalar = random.pick(Self.scalars(of: collection.element, depth: 0))
        let left = key(collection.path + "." + scalar.path, variable)
        if random.chance(0.15) {
            return .comparison(
                Comparison(
                    .constant(constant(scalar.kind)), .in, left, options: options(scalar.kind)))
        }
        var ops = operators(scalar.kind)
        ops.removeAll { $0 == .in && scalar.kind == .string }
        let op = random.pick(ops)
        let right: ObjectGraph.Expression
        switch op {
        case .like: right = .constant(.string(likePattern()))
        case .matches: right = .constant(.string(regex()))
        case .in:
            right = .aggregate([.constant(constant(scalar.kind)), .constant(constant(scalar.kind))])
        case .between:
            right = .aggregate([.constant(constant(scalar.kind)), .constant(constant(scalar.kind))])
        default: right = .constant(constant(scalar.kind))
        }
        let comparison = Comparison(
            left, op, right, modifier: random.chance(0.5) ? .any : .all,
            options: options(scalar.kind))
        if comparison.modifier == .any, random.chance(0.3) {
            return .not(.comparison(comparison))  // NONE
        }
        return .comparison(comparison)
    }

    mutating func aggregate(_ entity: String, variable: String?) -> ObjectGraph.Predicate {
        guard !Self.collections(of: entity).isEmpty else { return .constant(false) }
        let collection = random.pick(Self.collections(of: entity))
        let scalars = Self.scalars(of: collection.element, depth: 0)
        let op: CollectionOperator = random.pick([.count, .count, .sum, .avg, .min, .max])
        var path = collection.path + ".@" + op.rawValue
        var kind = Kind.number
        if op != .count {
            let candidates = scalars.filter {
                op == .min || op == .max
                    ? [.number, .string, .date].contains($0.kind) : $0.kind == .number
            }
            guard let scalar = candidates.isEmpty ? nil : random.pick(candidates) else {
                return .constant(true)
            }
            path += "." + scalar.path
            kind = scalar.kind
        }
        let right: ObjectGraph.Expression =
            op == .count
            ? .constant(.integer(Int64.random(in: 0...4, using: &random)))
            : .constant(constant(kind))
        let comparisonOperator = random.pick([
            ComparisonOperator.equal, .notEqual, .lessThan, .greaterThan, .lessThanOrEqual,
            .greaterThanOrEqual,
        ])
        return .comparison(
            Comparison(key(path, variable), comparisonOperator, right, options: options(kind)))
    }

    /// To-many paths ending on a to-one: their elements are objects or nil.
    static func toOneCollections(of entity: String) -> [Collection] {
        switch entity {
        case "Item", "Gadget", "Widget":
            return [
                Collection(path: "children.team", element: "Team"),
                Collection(path: "children.parent", element: "Item"),
                Collection(path: "children.buddy", element: "Item"),
                Collection(path: "team.members.buddy", element: "Item"),
                Collection(path: "tags.items.team", element: "Team"),
            ]
        case "Team":
            return [
                Collection(path: "members.parent", element: "Item"),
                Collection(path: "members.team", element: "Team"),
            ]
        case "Tag": return [Collection(path: "items.team", element: "Team")]
        default: return []
        }
    }

    /// What a SUBQUERY ranges over.
    enum Elements {
        /// Objects of the entity (never nil).
        case objects(String)
        /// Objects of the entity through a last to-one (nil for rows without one).
        case toOne(String)
        /// Values of the kind (an attribute of each row, nil included).
        case values(Kind)
    }

    /// `SUBQUERY(collection, $v, test)` over objects, objects through a to-one, values of an
    /// attribute or a constant list; nested inside another SUBQUERY when `outer` names its
    /// variable (and then compares the two variables). Counted, aggregated, or read by
    /// ANY/ALL/NONE, IN and CONTAINS.
    mutating func subquery(_ entity: String, depth: Int, outer: String? = nil)
        -> ObjectGraph.Predicate
    {
        guard !Self.collections(of: entity).isEmpty else { return .constant(true) }
        let variable = outer == nil ? random.pick(["x", "item", "t"]) : random.pick(["y", "u"])
        var path: String
        let elements: Elements
        var inner: ObjectGraph.Predicate
        let toOnes = Self.toOneCollections(of: entity)
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<5,
            8..<10 where toOnes.isEmpty:
            let collection = random.pick(Self.collections(of: entity))
            path = collection.path
            elements = .objects(collection.element)
            inner = predicate(collection.element, depth: max(0, depth - 1), variable: variable)
            if random.chance(0.25) {
                // Plain key paths inside a SUBQUERY read the element too.
                inner = predicate(collection.element, depth: 0)
            }
        case 5..<8:
            let collection = random.pick(Self.collections(of: entity))
            let scalar = random.pick(
                Self.scalars(of: collection.element, depth: random.chance(0.3) ? 1 : 0))
            path = collection.path + "." + scalar.path
            elements = .values(scalar.kind)
            inner = valueTest(.variable(variable), scalar.kind)
            if random.chance(0.2) { inner = valueTest(.evaluatedObject, scalar.kind) }
        default:
            let collection = random.pick(toOnes)
            path = collection.path
            elements = .toOne(collection.element)
            inner =
                random.chance(0.2)
                ? .comparison(
                    Comparison(
                        .variable(variable), random.chance(0.5) ? .equal : .notEqual,
                        .constant(.null)))
                : predicate(collection.element, depth: 0, variable: variable)
        }
        if let outer, random.chance(0.6) {
            inner = .and([inner, variableComparison(variable, elements, outer: outer, entity)])
        }
        let collection: ObjectGraph.Expression
        if case .values(let kind) = elements, random.chance(0.1) {
            // A constant collection (as a substituted variable gives): counted term by term.
            collection = .aggregate(
                (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    .constant(constant(kind))
                })
            return countComparison(.subquery(collection, variable, inner))
        }
        collection = key(path, outer)
        return use(.subquery(collection, variable, inner), elements)
    }

    /// A test of a SUBQUERY variable (or `SELF`) bound to a value of `kind`.
    private mutating func valueTest(_ value: ObjectGraph.Expression, _ kind: Kind)
        -> ObjectGraph.Predicate
    {
        if random.chance(0.1) {
            return .comparison(
                Comparison(value, random.chance(0.5) ? .equal : .notEqual, .constant(.null)))
        }
        switch kind {
        case .string:
            if random.chance(0.25) {
                return .comparison(
                    Comparison(
                        .member(value, PredicateKeyPath("length")),
                        random.pick([.greaterThan, .lessThan, .equal]),
                        .constant(.integer(Int64.random(in: 0...6, using: &random)))))
            }
            let op = random.pick([
                ComparisonOperator.equal, .notEqual, .beginsWith, .contains, .lessThan, .like,
            ])
            let right: ObjectGraph.Expression =
                op == .like ? .constant(.string(likePattern())) : .constant(constant(.string))
            return .comparison(Comparison(value, op, right, options: options(.string)))
        case .number, .date:
            if random.chance(0.2) {
                return .comparison(
                    Comparison(
                        value, .between,
                        .aggregate([
                            .constant(constant(kind)), .constant(constant(kind)),
                        ])))
            }
            return .comparison(
                Comparison(
                    value, random.pick([.equal, .lessThan, .greaterThanOrEqual, .notEqual]),
                    .constant(constant(kind))))
        case .uuid, .data, .uri:
            return .comparison(
                Comparison(
                    value, random.chance(0.5) ? .equal : .in,
                    random.chance(0.5)
                        ? .constant(constant(kind))
                        : .aggregate([.constant(constant(kind)), .constant(constant(kind))])))
        }
    }

    /// A nested SUBQUERY's variable compared with the enclosing one's (`$y == $x`,
    /// `$y.team == $x.team`, `$y.name ==[c] $x.name`, `$n == $x.name`).
    private mutating func variableComparison(
        _ variable: String, _ elements: Elements, outer: String, _ outerEntity: String
    ) -> ObjectGraph.Predicate {
        let mine = ObjectGraph.Expression.variable(variable)
        let theirs = ObjectGraph.Expression.variable(outer)
        let outerScalars = Self.scalars(of: outerEntity, depth: 0)
        switch elements {
        case .objects(let entity), .toOne(let entity):
            let items = ["Item", "Gadget", "Widget"]
            if items.contains(entity), items.contains(outerEntity), random.chance(0.6) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: return .comparison(Comparison(mine, .notEqual, theirs))
                case 1:
                    return .comparison(
                        Comparison(.member(mine, PredicateKeyPath("parent")), .equal, theirs))
                case 2:
                    return .comparison(
                        Comparison(
                            .member(mine, PredicateKeyPath("team")), .equal,
                            .member(theirs, PredicateKeyPath("team"))))
                default:
                    return .comparison(
                        Comparison(
                            .member(mine, PredicateKeyPath("count")), .greaterThan,
                            .member(theirs, PredicateKeyPath("count"))))
                }
            }
            if entity == outerEntity, random.chance(0.5) {
                return .comparison(
                    Comparison(mine, random.chance(0.5) ? .equal : .notEqual, theirs))
            }
            return .comparison(
                Comparison(
                    .member(mine, PredicateKeyPath("name")), .equal,
                    .member(theirs, PredicateKeyPath("name")), options: options(.string)))
        case .values(let kind):
            let same = outerScalars.filter { $0.kind == kind }
            guard !same.isEmpty else { return .constant(true) }
            let op: ComparisonOperator =
                [.number, .date, .string].contains(kind)
                ? random.pick([.equal, .lessThan, .notEqual]) : .equal
            return .comparison(
                Comparison(
                    mine, op, .member(theirs, PredicateKeyPath(random.pick(same).path)),
                    options: options(kind)))
        }
    }

    private mutating func countComparison(_ subquery: ObjectGraph.Expression)
        -> ObjectGraph.Predicate
    {
        let size: ObjectGraph.Expression =
            random.chance(0.2)
            ? .index(subquery, .size) : .member(subquery, PredicateKeyPath([.operator(.count)]))
        return .comparison(
            Comparison(
                size, random.pick([.greaterThan, .equal, .greaterThanOrEqual, .lessThan]),
                .constant(.integer(Int64.random(in: 0...3, using: &random)))))
    }

    /// A SUBQUERY counted, aggregated, or read as a collection.
    private mutating func use(_ subquery: ObjectGraph.Expression, _ elements: Elements)
        -> ObjectGraph.Predicate
    {
        let roll = Int.random(in: 0..<10, using: &random)
        switch elements {
        case .objects(let entity), .toOne(let entity):
            let scalars = Self.scalars(of: entity, depth: 0)
            switch roll {
            case 0..<4:
                return countComparison(subquery)
            case 4, 5:
                let op: CollectionOperator = random.pick([.sum, .avg, .min, .max])
                let candidates = scalars.filter {
                    op == .min || op == .max
                        ? [.number, .string, .date].contains($0.kind) : $0.kind == .number
                }
                guard !candidates.isEmpty else { return countComparison(subquery) }
                let scalar = random.pick(candidates)
                return .comparison(
                    Comparison(
                        .member(subquery, PredicateKeyPath([.operator(op), .key(scalar.path)])),
                        random.pick([.equal, .lessThan, .greaterThan, .notEqual]),
                        .constant(constant(scalar.kind)), options: options(scalar.kind)))
            case 6, 7:
                let scalar = random.pick(Self.scalars(of: entity, depth: 1))
                let comparison = Comparison(
                    .member(subquery, PredicateKeyPath(scalar.path)),
                    random.pick(
                        [.equal, .lessThan, .notEqual, .beginsWith].filter {
                            switch $0 {
                            case .beginsWith: return scalar.kind == .string
                            case .lessThan: return [.string, .number, .date].contains(scalar.kind)
                            default: return true
                            }
                        }), .constant(constant(scalar.kind)),
                    modifier: random.chance(0.5) ? .any : .all, options: options(scalar.kind))
                if comparison.modifier == .any, random.chance(0.3) {
                    return .not(.comparison(comparison))  // NONE
                }
                return .comparison(comparison)
            default:
                let id = ObjectGraph.Expression.constant(objectID(of: entity))
                return .comparison(
                    random.chance(0.5)
                        ? Comparison(subquery, .contains, id) : Comparison(id, .in, subquery))
            }
        case .values(let kind):
            switch roll {
            case 0..<4:
                return countComparison(subquery)
            case 4..<6 where kind == .number || kind == .date || kind == .string:
                let op: CollectionOperator =
                    kind == .number
                    ? random.pick([.sum, .avg, .min, .max]) : random.pick([.min, .max])
                return .comparison(
                    Comparison(
                        .member(subquery, PredicateKeyPath([.operator(op)])),
                        random.pick([.equal, .lessThan, .greaterThan, .notEqual]),
                        .constant(constant(kind)), options: options(kind)))
            case 6, 7:
                let comparison = Comparison(
                    subquery,
                    random.pick(
                        operators(kind).filter { ![.in, .between, .matches].contains($0) }),
                    .constant(constant(kind)), modifier: random.chance(0.5) ? .any : .all,
                    options: options(kind))
                if comparison.modifier == .any, random.chance(0.3) {
                    return .not(.comparison(comparison))  // NONE
                }
                return .comparison(comparison)
            default:
                return .comparison(
                    Comparison(.constant(constant(kind)), .in, subquery, options: options(kind)))
            }
        }
    }

    mutating func arithmetic(_ entity: String, variable: String?) -> ObjectGraph.Predicate {
        let numbers = Self.scalars(of: entity).filter {
            $0.kind == .number && $0.path != "big" && $0.path != "amount" && $0.path != "price"
        }
        let left = key(random.pick(numbers).path, variable)
        let other: ObjectGraph.Expression =
            random.chance(0.5)
            ? key(random.pick(numbers).path, variable)
            : .constant(.integer(Int64.random(in: 1...5, using: &random)))
        let expression: ObjectGraph.Expression
        switch Int.random(in: 0..<6, using: &random) {
        case 0: expression = .arithmetic(left, .add, other)
        case 1: expression = .arithmetic(left, .subtract, other)
        case 2: expression = .arithmetic(left, .multiply, other)
        case 3:
            expression = .arithmetic(
                left, .divide, .constant(.integer(Int64.random(in: 1...4, using: &random))))
        case 4: expression = .negate(left)
        case 5 where ["Item", "Gadget", "Widget"].contains(entity):
            expression = .ternary(
                .comparison(Comparison(key("flag", variable), .equal, .constant(.bool(true)))),
                left, other)
        default:
            expression = .arithmetic(left, .power, .constant(.integer(2)))
        }
        return .comparison(
            Comparison(
                expression, random.pick([.lessThan, .greaterThan, .equal, .notEqual]),
                .constant(constant(.number))))
    }

    /// Built-in functions and `FUNCTION` methods.
    mutating func function(_ entity: String, variable: String?) -> ObjectGraph.Predicate {
        let numbers = Self.scalars(of: entity).filter { $0.kind == .number }.map(\.path)
        let strings = Self.scalars(of: entity).filter { $0.kind == .string }.map(\.path)
        let number = key(random.pick(numbers), variable)
        let text = key(random.pick(strings), variable)
        let integerKey: String
        switch entity {
        case "Team": integerKey = "rank"
        case "Item", "Gadget", "Widget": integerKey = "count"
        default: integerKey = random.pick(numbers)
        }
        let integer = key(integerKey, variable)
        let small = ObjectGraph.Expression.constant(
            .integer(Int64.random(in: 1...4, using: &random)))
        let stringResult: ObjectGraph.Expression?
        let numberResult: ObjectGraph.Expression?
        switch Int.random(in: 0..<12, using: &random) {
        case 0: (stringResult, numberResult) = (.function("uppercase:", [text]), nil)
        case 1: (stringResult, numberResult) = (.function("lowercase:", [text]), nil)
        case 2: (stringResult, numberResult) = (.functionCall(text, "uppercaseString", []), nil)
        case 3: (stringResult, numberResult) = (nil, .functionCall(text, "length", []))
        case 4: (stringResult, numberResult) = (nil, .function("abs:", [number]))
        case 5: (stringResult, numberResult) = (nil, .function("sqrt:", [number]))
        case 6:
            (stringResult, numberResult) = (
                nil, .function(random.pick(["floor:", "ceiling:", "trunc:"]), [number])
            )
        case 7: (stringResult, numberResult) = (nil, .function("modulus:by:", [integer, small]))
        case 8: (stringResult, numberResult) = (nil, .function("add:to:", [number, small]))
        case 9:
            (stringResult, numberResult) = (nil, .function("bitwiseAnd:with:", [integer, small]))
        case 10: (stringResult, numberResult) = (nil, .function("median:", [.aggregate([number])]))
        default: (stringResult, numberResult) = (.functionCall(text, "capitalizedString", []), nil)
        }
        if let stringResult {
            return .comparison(
                Comparison(
                    stringResult, random.pick([.equal, .beginsWith, .lessThan]),
                    .constant(constant(.string)), options: options(.string)))
        }
        return .comparison(
            Comparison(
                numberResult ?? .constant(.null),
                random.pick([.equal, .notEqual, .lessThan, .greaterThanOrEqual]),
                .constant(constant(.number))))
    }

    /// Fragments the compiler must reject (or that mix kinds).
    mutating func oddity(_ entity: String, variable: String?) -> ObjectGraph.Predicate {
        let scalars = Self.scalars(of: entity)
        let scalar = random.pick(scalars)
        let other = random.pick(Kind.allCases.filter { $0 != scalar.kind })
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1:
            // Equality across kinds: always false (or both nil).
            return .comparison(
                Comparison(
                    key(scalar.path, variable), random.chance(0.5) ? .equal : .notEqual,
                    .constant(constant(other))))
        case 2:
            return .comparison(Comparison(.constant(.null), .equal, .constant(.null)))
        case 3:
            return function(entity, variable: variable)
        case 4:
            // Ordering across kinds: the evaluator throws, the compiler rejects.
            return .comparison(
                Comparison(key(scalar.path, variable), .lessThan, .constant(constant(other))))
        default:
            return .comparison(
                Comparison(key(scalar.path, variable), .lessThan, .constant(.null)))
        }
    }
}
