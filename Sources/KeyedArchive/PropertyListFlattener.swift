import Foundation

/// The objects CFBinaryPList is handed, with the identity (the pointer) that decides sharing.
indirect enum PropertyListNode: Sendable {
    /// A string, number, date or data: written once per identity, every later use refers to it.
    case scalar(PropertyListTable.Entry, identity: PropertyListIdentity)
    /// A UID or Boolean: written at every use, every use refers to the first equal one (CF
    /// keeps one object per UID value and one per Boolean).
    case repeated(PropertyListTable.Entry)
    /// An array.
    case array([PropertyListNode])
    /// A set (written as CF writes no set, but readers accept: marker `0xC`).
    case set([PropertyListNode])
    /// A dictionary, keys in the order written.
    case dictionary([(key: PropertyListNode, value: PropertyListNode)])
}

/// What makes two scalars one object of the file.
enum PropertyListIdentity: Hashable, Sendable {
    /// The object at this index of the table of the archive (numbered) a value was read from.
    case template(Int, Int)
    /// A field name of the archiver, one string object per name.
    case constant(String)
    /// A class name in class records, one string object per name.
    case className(String)
    /// An object of its own.
    case fresh(Int)
    /// Equal values are one object (property lists written from plain values).
    case value(PropertyListTable.Entry)
}

/// CF's `_flattenPlist`: objects in depth-first order (a dictionary's keys, then its values);
/// strings, numbers, dates and data of one identity written once; UIDs, Booleans and
/// containers written at every use, references going to the first object written for them.
struct PropertyListFlattener {
    private(set) var objects: [PropertyListTable.Entry] = []
    private var scalars: [PropertyListIdentity: Int] = [:]
    private var repeated: [PropertyListTable.Entry: Int] = [:]

    /// The table of `root`.
    static func table(_ root: PropertyListNode) -> PropertyListTable {
        var flattener = PropertyListFlattener()
        _ = flattener.flatten(root)
        return PropertyListTable(objects: flattener.objects, top: 0)
    }

    /// Adds `node` and what it holds; returns the index references to it use.
    mutating func flatten(_ node: PropertyListNode) -> Int {
        switch node {
        case .scalar(let entry, let identity):
            if let known = scalars[identity] { return known }
            objects.append(entry)
            scalars[identity] = objects.count - 1
            return objects.count - 1
        case .repeated(let entry):
            objects.append(entry)
            if let first = repeated[entry] { return first }
            repeated[entry] = objects.count - 1
            return objects.count - 1
        case .array(let elements), .set(let elements):
            let index = objects.count
            objects.append(.null)
            var references: [Int] = []
            references.reserveCapacity(elements.count)
            for element in elements { references.append(flatten(element)) }
            if case .set = node {
                objects[index] = .set(references)
            } else {
                objects[index] = .array(references)
            }
            return index
        case .dictionary(let entries):
            let index = objects.count
            objects.append(.null)
            var keys: [Int] = []
            var values: [Int] = []
            for entry in entries { keys.append(flatten(entry.key)) }
            for entry in entries { values.append(flatten(entry.value)) }
            objects[index] = .dictionary(keys: keys, values: values)
            return index
        }
    }
}
