import Foundation

/// Coordinators made from a versioned model bundle: they know every version, so stores written
/// with an earlier one are migrated when added.
extension StoreCoordinator {
    /// Creates a coordinator for the version `version` of `bundle` (its current version when
    /// `nil`) that knows all its versions and the mapping models in and beside the bundle.
    ///
    /// ```swift
    /// let bundle = try ModelBundle(contentsOf: URL(fileURLWithPath: "Models/Moods.xcdatamodeld"))
    /// let coordinator = try StoreCoordinator(bundle: bundle)
    /// try coordinator.addStore(type: .sqlite, at: storeURL)   // migrated from any earlier version
    /// ```
    ///
    /// - Parameters:
    ///   - bundle: the model bundle.
    ///   - version: the version to use, by name (without `.xcdatamodel`).
    ///   - mappingModels: the mapping models to use; `nil`: those found in and beside the
    ///     bundle's folder (`*.xcmappingmodel`).
    /// - Throws: ``ModelError`` when a version cannot be read or `version` is not in the
    ///   bundle, ``MigrationError/unreadableMappingModel(path:reason:)`` for a mapping model
    ///   beside it that cannot be read.
    public convenience init(
        bundle: ModelBundle, version: String? = nil, mappingModels: [MappingModel]? = nil
    ) throws {
        let versions = try Self.versions(of: bundle)
        let name = version ?? bundle.currentVersionName
        guard let chosen = versions.first(where: { $0.name == name }) else {
            throw ModelError(
                .missingVersion,
                "no version '\(name)' in the bundle (versions: "
                    + versions.map { "'\($0.name)'" }.joined(separator: ", ") + ")",
                file: bundle.url.path)
        }
        let found =
            try mappingModels
            ?? MigrationBridge.mappingModels(besides: bundle.url, versions: versions)
        self.init(model: chosen.model, versions: versions, mappingModels: found)
    }

    /// Every version of `bundle`, in the bundle's order (the current one with the bundle's
    /// diagnostics).
    static func versions(of bundle: ModelBundle) throws -> [ModelVersion] {
        try bundle.versionNames.map { name in
            let model =
                name == bundle.currentVersionName
                ? try bundle.currentModel() : try bundle.model(named: name)
            return ModelVersion(name: name, model: model)
        }
    }
}
