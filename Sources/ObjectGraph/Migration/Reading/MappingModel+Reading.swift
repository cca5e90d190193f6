import Foundation
import KeyedArchive

extension MappingModel {
    /// Reads an Xcode mapping model (`.xcmappingmodel`, or its `xcmapping.xml`): the source
    /// and destination versions, found among `versions` by the last path component of the
    /// model paths the file records (`Foo 2.xcdatamodel` is version `Foo 2`), and every entity
    /// mapping with its kind, source expression, filter predicate, policy class, user info and
    /// attribute and relationship mappings, whose archived value expressions are decoded.
    ///
    /// ```swift
    /// let bundle = try ModelBundle(contentsOf: bundleURL)
    /// let versions = try bundle.versionNames.map { ModelVersion(name: $0, model: try bundle.model(named: $0)) }
    /// let mapping = try MappingModel(contentsOf: mappingURL, versions: versions)
    /// print(mapping.entityMappings[0].attributeMappings[0].valueExpression!)  // $source.name
    /// ```
    /// - Throws: ``MigrationError/unreadableMappingModel(path:reason:)`` naming the file, the
    ///   object and its line, and what is wrong: a malformed file or archive, an expression
    ///   ObjectGraph has no form for (naming its class), or a version or entity that is not
    ///   among `versions`.
    public init(contentsOf url: URL, versions: [ModelVersion]) throws(MigrationError) {
        let reader = try MappingModelReader(contentsOf: url)
        self = try reader.mappingModel(versions: versions)
    }
}
