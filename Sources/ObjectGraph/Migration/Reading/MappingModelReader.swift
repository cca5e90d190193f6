import Foundation
import KeyedArchive

/// Builds a ``MappingModel`` from a ``MappingModelFile``: its one `XDDEVMAPPINGMODEL` names the
/// two model versions; each `XDDEVENTITYMAPPING` it lists becomes an ``EntityMapping``.
struct MappingModelReader {
    let file: MappingModelFile
    /// The `XDDEVMAPPINGMODEL` object.
    let root: MappingModelFile.Object
    /// The source version's name (the last component of `sourcemodelpath`, without extension).
    let sourceVersionName: String
    /// The destination version's name.
    let destinationVersionName: String

    init(contentsOf url: URL) throws(MigrationError) {
        file = try MappingModelFile(contentsOf: url)
        let roots = file.objects(ofType: "XDDEVMAPPINGMODEL")
        guard roots.count == 1, let root = roots.first else {
            throw .unreadableMappingModel(
                path: file.path,
                reason: "holds \(roots.count) XDDEVMAPPINGMODEL objects, not one")
        }
        self.root = root
        sourceVersionName = try Self.versionName(file, root, "sourcemodelpath")
        destinationVersionName = try Self.versionName(file, root, "destinationmodelpath")
    }

    /// `Foo 2` for a model path ending in `Foo 2.xcdatamodel`.
    private static func versionName(
        _ file: MappingModelFile, _ root: MappingModelFile.Object, _ attribute: String
    ) throws(MigrationError) -> String {
        guard let path = file.string(root, attribute) else {
            throw file.failure(root, "there is no \(attribute)")
        }
        let last = path.split(separator: "/").last.map(String.init) ?? path
        let name = last.hasSuffix(".xcdatamodel") ? String(last.dropLast(12)) : last
        guard !name.isEmpty else { throw file.failure(root, "\(attribute) names no model") }
        return name
    }

    /// The mapping model between the two versions, found in `versions`.
    func mappingModel(versions: [ModelVersion]) throws(MigrationError) -> MappingModel {
        let source = try version(sourceVersionName, "sourcemodelpath", in: versions)
        let destination = try version(destinationVersionName, "destinationmodelpath", in: versions)
        try checkCarriedModel("sourcemodeldata")
        try checkCarriedModel("destinationmodeldata")
        let sourceHashes = source.model.entityVersionHashes
        let destinationHashes = destination.model.entityVersionHashes
        var entityMappings: [EntityMapping] = []
        for object in try orderedEntityMappings() {
            var mapping = try EntityMappingReader(file: file, object: object).entityMapping()
            if let name = mapping.sourceEntityName {
                guard let hash = sourceHashes[name] else {
                    throw file.failure(
                        object, "source entity \(name) is not in version \(source.name)")
                }
                mapping.sourceEntityVersionHash = hash
            }
            if let name = mapping.destinationEntityName {
                guard let hash = destinationHashes[name] else {
                    throw file.failure(
                        object, "destination entity \(name) is not in version \(destination.name)")
                }
                mapping.destinationEntityVersionHash = hash
            }
            entityMappings.append(mapping)
        }
        return MappingModel(
            sourceVersionName: source.name, destinationVersionName: destination.name,
            sourceModel: source.model, destinationModel: destination.model,
            entityMappings: entityMappings, isInferred: false, sourceFile: file.path)
    }

    private func version(_ name: String, _ attribute: String, in versions: [ModelVersion])
        throws(MigrationError) -> ModelVersion
    {
        guard let version = versions.first(where: { $0.name == name }) else {
            let known = versions.map(\.name).joined(separator: ", ")
            throw file.failure(
                root,
                "\(attribute) names version \"\(name)\", which is not among the versions"
                    + " (\(known.isEmpty ? "none" : known))")
        }
        return version
    }

    /// The entity mappings the root lists, in their `mappingnumber` order (listed order where
    /// numbers are missing or equal).
    private func orderedEntityMappings() throws(MigrationError) -> [MappingModelFile.Object] {
        let listed = try file.related(root, "entitymappings", type: "XDDEVENTITYMAPPING")
        let numbered = listed.enumerated().map { (position, object) in
            (
                number: file.string(object, "mappingnumber").flatMap { Int($0) } ?? Int.max,
                position: position, object: object
            )
        }
        return numbered.sorted { ($0.number, $0.position) < ($1.number, $1.position) }
            .map(\.object)
    }

    /// Checks that the copy of a model Xcode keeps in the file (`sourcemodeldata`,
    /// `destinationmodeldata`: a keyed archive of Xcode's `XDModelPackage`) is an archive.
    ///
    /// Hook: the versions come from the model paths; decoding this archive into an
    /// ``EntityModel`` (to check it against the version, or to migrate without the bundle) is
    /// left to the reader of Xcode's model archives (issue 20), which would start here.
    private func checkCarriedModel(_ attribute: String) throws(MigrationError) {
        guard let data = try file.data(root, attribute) else { return }
        do {
            guard case .object = try KeyedArchive(data: data).rootValue() else {
                throw file.failure(root, "\(attribute) archives no object")
            }
        } catch let error as KeyedArchiveError {
            throw file.failure(root, "\(attribute): \(error)")
        } catch let error as MigrationError {
            throw error
        } catch {
            throw file.failure(root, "\(attribute): \(error)")
        }
    }
}
