import Foundation
import ObjectGraph

/// Mapping models named on the command line.
enum MigrationCommandMappings {
    /// Reads each `.xcmappingmodel` of `paths`.
    static func read(_ paths: [String], versions: [ModelVersion]) throws -> [MappingModel] {
        try paths.map { path throws in
            try MappingModel(contentsOf: URL(fileURLWithPath: path), versions: versions)
        }
    }
}
