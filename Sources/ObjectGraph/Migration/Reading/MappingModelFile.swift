import Foundation

/// The objects of an Xcode mapping model's `xcmapping.xml`: a Core Data XML store of Xcode's
/// own mapping entities (`XDDEVMAPPINGMODEL`, `XDDEVENTITYMAPPING`, `XDDEVATTRIBUTEMAPPING`,
/// `XDDEVRELATIONSHIPMAPPING`), each with its attributes (typed text) and relationships (the
/// ids of other objects), read with the model reader's safe XML parser.
struct MappingModelFile {
    /// One `<attribute>`: its declared type, its text and its line.
    struct Attribute {
        var type: String
        var text: String
        var line: Int
    }

    /// One `<object>`.
    struct Object {
        /// The type, uppercased (`XDDEVENTITYMAPPING`).
        var type: String
        var id: String
        var line: Int
        var attributes: [String: Attribute] = [:]
        var relationships: [String: [String]] = [:]

        /// `XDDEVENTITYMAPPING z102 (line 12)`, for errors.
        var label: String { "\(type) \(id) (line \(line))" }
    }

    /// The `xcmapping.xml` file's path (errors name it).
    let path: String
    /// Every object by id.
    let objects: [String: Object]

    /// The largest file read (real ones are tens of kilobytes).
    static let maximumSize = 64 << 20

    /// Reads `url`: an `.xcmappingmodel` folder or its `xcmapping.xml`.
    init(contentsOf url: URL) throws(MigrationError) {
        var file = url
        if PathKind(atPath: url.path) == .directory {
            file = url.appendingPathComponent("xcmapping.xml")
        }
        path = file.path
        let kind = PathKind(atPath: path)
        guard kind == .regularFile else {
            let what = kind == .missing ? "there is no such file" : "it is \(kind), not a file"
            throw .unreadableMappingModel(path: path, reason: what)
        }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .unreadableMappingModel(path: path, reason: "cannot be read (\(error))")
        }
        guard data.count <= Self.maximumSize else {
            throw .unreadableMappingModel(
                path: path, reason: "\(data.count) bytes is too large for a mapping model")
        }
        let root: XMLElementNode
        do {
            root = try XMLTreeParser.parse(data, file: path)
        } catch let error as ModelError {
            let place = error.location.map { "line \($0.line), column \($0.column): " } ?? ""
            throw .unreadableMappingModel(path: path, reason: place + error.message)
        } catch {
            throw .unreadableMappingModel(path: path, reason: "\(error)")
        }
        guard root.name == "database" else {
            throw .unreadableMappingModel(
                path: path, reason: "the root element is <\(root.name)>, not <database>")
        }
        var objects: [String: Object] = [:]
        for element in root.children where element.name == "object" {
            let object = try Self.object(element, path: path)
            guard objects[object.id] == nil else {
                throw .unreadableMappingModel(
                    path: path, reason: "line \(object.line): object id \(object.id) is used twice")
            }
            objects[object.id] = object
        }
        self.objects = objects
    }

    private static func object(_ element: XMLElementNode, path: String) throws(MigrationError)
        -> Object
    {
        let line = element.location.line
        guard let type = element.attribute("type"), let id = element.attribute("id") else {
            throw .unreadableMappingModel(
                path: path, reason: "line \(line): an <object> without a type or an id")
        }
        var object = Object(type: type.uppercased(), id: id, line: line)
        for child in element.children {
            guard let name = child.attribute("name") else { continue }
            let key = name.lowercased()
            switch child.name {
            case "attribute":
                object.attributes[key] = Attribute(
                    type: child.attribute("type") ?? "string", text: child.text,
                    line: child.location.line)
            case "relationship":
                let ids = (child.attribute("idrefs") ?? "").split(separator: " ").map(String.init)
                object.relationships[key] = ids
            default:
                continue
            }
        }
        return object
    }

    /// The objects of type `type`.
    func objects(ofType type: String) -> [Object] {
        objects.values.filter { $0.type == type }.sorted { $0.line < $1.line }
    }

    /// The objects `owner`'s relationship `name` lists, in order, each checked to exist and to
    /// be of type `type`.
    func related(_ owner: Object, _ name: String, type: String) throws(MigrationError) -> [Object] {
        var result: [Object] = []
        for id in owner.relationships[name] ?? [] {
            guard let object = objects[id] else {
                throw failure(owner, "\(name) names object \(id), which the file does not hold")
            }
            guard object.type == type else {
                throw failure(owner, "\(name) names \(object.label), not an \(type)")
            }
            result.append(object)
        }
        return result
    }

    /// The string attribute `name` of `object` (`nil` when absent or empty).
    func string(_ object: Object, _ name: String) -> String? {
        guard let text = object.attributes[name]?.text, !text.isEmpty else { return nil }
        return text
    }

    /// The binary attribute `name` of `object`, base64-decoded (`nil` when absent).
    func data(_ object: Object, _ name: String) throws(MigrationError) -> Data? {
        guard let attribute = object.attributes[name] else { return nil }
        guard let bytes = Data(base64Encoded: attribute.text, options: .ignoreUnknownCharacters)
        else {
            throw failure(object, "\(name) (line \(attribute.line)) is not base64")
        }
        return bytes
    }

    /// The Boolean attribute `name` of `object` (`false` when absent).
    func bool(_ object: Object, _ name: String) -> Bool {
        guard let text = string(object, name)?.trimmingCharacters(in: .whitespacesAndNewlines)
        else { return false }
        return ["1", "yes", "true"].contains(text.lowercased())
    }

    /// The error `reason` about `object`.
    func failure(_ object: Object, _ reason: String) -> MigrationError {
        .unreadableMappingModel(path: path, reason: "\(object.label): \(reason)")
    }
}
