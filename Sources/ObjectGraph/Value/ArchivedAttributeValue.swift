import KeyedArchive

/// A value a Transformable attribute holds as an `NSKeyedArchiver` archive (Core Data's default
/// `NSSecureUnarchiveFromData` transformer): strings, numbers, dates, data, URLs, UUIDs, null,
/// arrays, dictionaries, sets, ordered sets, attributed strings (their text) and, for a class
/// not known here, the object's kept archive. Read it with
/// ``ManagedObject/archivedValue(for:)``, store it with ``ManagedObject/setArchivedValue(_:for:)``.
///
/// ```swift
/// if case .dictionary(let entries)? = try account.archivedValue(for: "properties") {
///     for entry in entries { print(entry.key, entry.value) }
/// }
/// ```
public typealias ArchivedAttributeValue = FoundationValue

/// The number kinds of an ``ArchivedAttributeValue`` (integer, unsigned, `float`, `double`,
/// Boolean), kept apart as the archive keeps them.
public typealias ArchivedAttributeNumber = ArchivedNumber

/// An object of an ``ArchivedAttributeValue`` kept as archived (attributed strings and objects
/// of unknown classes).
public typealias ArchivedAttributeObject = ArchivedObjectBytes
