/// A fetch index of an entity (`<fetchIndex>`): one or more properties, each ascending or
/// descending.
public struct FetchIndex: Sendable, Hashable {
    /// One indexed property.
    public struct Element: Sendable, Hashable {
        /// The property's name.
        public var property: String
        /// The index kind as written (`Binary`; `RTree` in principle).
        public var type: String
        /// Whether the index sorts ascending (`order="ascending"`).
        public var isAscending: Bool

        /// Creates an element.
        public init(property: String, type: String = "Binary", isAscending: Bool = true) {
            self.property = property
            self.type = type
            self.isAscending = isAscending
        }
    }

    /// The index name.
    public var name: String
    /// The indexed properties in order.
    public var elements: [Element]
    /// Where it was read from (not part of equality).
    @EqualityIgnored public var location: SourceLocation? = nil

    /// Creates a fetch index.
    public init(_ name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}

/// A named group of entities stored together (`<configuration>`), used to route entities to
/// stores.
public struct Configuration: Sendable, Hashable {
    /// The configuration name.
    public var name: String
    /// The names of its entities, in file order.
    public var entityNames: [String]
    /// Whether the configuration syncs with CloudKit (`usedWithCloudKit="YES"`).
    public var isUsedWithCloudKit: Bool
    /// Where it was read from (not part of equality).
    @EqualityIgnored public var location: SourceLocation? = nil

    /// Creates a configuration.
    public init(_ name: String, entities: [String], isUsedWithCloudKit: Bool = false) {
        self.name = name
        entityNames = entities
        self.isUsedWithCloudKit = isUsedWithCloudKit
    }
}

/// A composite type (`<composite>`, Xcode 15): a named group of attributes that composite
/// attributes refer to.
public struct Composite: Sendable, Hashable {
    /// The composite's name.
    public var name: String
    /// Its attributes.
    public var attributes: [Attribute]
    /// Where it was read from (not part of equality).
    @EqualityIgnored public var location: SourceLocation? = nil

    /// Creates a composite.
    public init(_ name: String, attributes: [Attribute]) {
        self.name = name
        self.attributes = attributes
    }
}

/// The diagram position of an entity in Xcode's editor (`<elements><element …/>`). Layout only.
public struct LayoutElement: Sendable, Hashable {
    /// The entity's name.
    public var name: String
    /// The position and size, as written.
    public var positionX: String, positionY: String, width: String, height: String

    /// Creates a layout element.
    public init(name: String, positionX: String, positionY: String, width: String, height: String) {
        self.name = name
        self.positionX = positionX
        self.positionY = positionY
        self.width = width
        self.height = height
    }
}
