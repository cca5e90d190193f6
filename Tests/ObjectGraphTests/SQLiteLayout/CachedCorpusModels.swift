import Foundation

/// Models rebuilt from the `Z_MODELCACHE` of two corpus stores that ship without a model
/// (decompressed and unarchived offline, written back in Xcode's format): names, parents,
/// attribute types, transient flags and relationships — what the layout depends on. Optional
/// flags and hash modifiers were not carried over, so their version hashes differ.
enum CachedCorpusModels {
    /// The model of `10-plaso-macos-knowledgec-10.13`.
    static let knowledgeC = #"""
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="AdditionChangeSet">
        <attribute name="sequenceNumber" attributeType="Integer 64"/>
        <attribute name="deviceIdentifier" attributeType="String"/>
        <attribute name="endDate" attributeType="Date"/>
        <attribute name="changeSet" optional="YES" attributeType="Binary"/>
        <attribute name="startDate" attributeType="Date"/>
        <attribute name="ckRecordSystemFields" optional="YES" attributeType="Binary"/>
        <attribute name="version" attributeType="Integer 16"/>
        <attribute name="ckForeignKey" optional="YES" attributeType="String"/>
        <attribute name="ckRecordID" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Category" parentEntity="Object">
        <attribute name="integerValue" optional="YES" attributeType="Integer 64"/>
        <attribute name="categoryType" optional="YES" attributeType="Integer 64"/>
        </entity>
        <entity name="ContextualChangeRegistration">
        <attribute name="identifier" attributeType="String"/>
        <attribute name="properties" attributeType="Binary"/>
        <attribute name="creationDate" attributeType="Date"/>
        </entity>
        <entity name="ContextualKeyPath">
        <attribute name="isEphemeral" optional="YES" attributeType="Boolean"/>
        <attribute name="creationDate" attributeType="Date"/>
        <attribute name="deviceID" optional="YES" attributeType="Integer 64"/>
        <attribute name="isUserCentric" optional="YES" attributeType="Boolean"/>
        <attribute name="lastModifiedDate" optional="YES" attributeType="Date"/>
        <attribute name="key" attributeType="String"/>
        <attribute name="value" attributeType="Binary"/>
        </entity>
        <entity name="CustomMetadata">
        <attribute name="binaryValue" optional="YES" attributeType="Binary"/>
        <attribute name="stringValue" optional="YES" attributeType="String"/>
        <attribute name="valueHash" attributeType="String"/>
        <relationship name="object" optional="YES" maxCount="1" destinationEntity="Object" inverseName="objectAttributeValue" inverseEntity="Object"/>
        <relationship name="event" optional="YES" toMany="YES" maxCount="0" destinationEntity="Event" inverseName="customMetadata" inverseEntity="Event"/>
        <attribute name="integerValue" optional="YES" attributeType="Integer 64"/>
        <attribute name="dateValue" optional="YES" attributeType="Date"/>
        <attribute name="name" attributeType="String"/>
        <attribute name="doubleValue" optional="YES" attributeType="Double"/>
        </entity>
        <entity name="DeletionChangeSet">
        <attribute name="sequenceNumber" attributeType="Integer 64"/>
        <attribute name="deviceIdentifier" attributeType="String"/>
        <attribute name="endDate" attributeType="Date"/>
        <attribute name="changeSet" optional="YES" attributeType="Binary"/>
        <attribute name="startDate" attributeType="Date"/>
        <attribute name="ckRecordSystemFields" optional="YES" attributeType="Binary"/>
        <attribute name="version" attributeType="Integer 16"/>
        <attribute name="ckForeignKey" optional="YES" attributeType="String"/>
        <attribute name="ckRecordID" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Event" parentEntity="Object">
        <attribute name="endSecondOfDay" optional="YES" attributeType="Integer 32"/>
        <attribute name="startSecondOfDay" optional="YES" attributeType="Integer 32"/>
        <attribute name="valueDouble" optional="YES" attributeType="Double"/>
        <attribute name="hasCustomMetadata" attributeType="Boolean"/>
        <attribute name="valueInteger" optional="YES" attributeType="Integer 64"/>
        <attribute name="secondsFromGMT" optional="YES" attributeType="Integer 64"/>
        <attribute name="shouldSync" optional="YES" attributeType="Boolean"/>
        <attribute name="hasStructuredMetadata" attributeType="Boolean"/>
        <attribute name="streamName" optional="YES" attributeType="String"/>
        <relationship name="structuredMetadata" optional="YES" maxCount="1" destinationEntity="StructuredMetadata" inverseName="event" inverseEntity="StructuredMetadata"/>
        <attribute name="endDate" attributeType="Date"/>
        <relationship name="customMetadata" optional="YES" toMany="YES" maxCount="0" destinationEntity="CustomMetadata" inverseName="event" inverseEntity="CustomMetadata"/>
        <attribute name="confidence" optional="YES" attributeType="Double"/>
        <attribute name="endDayOfWeek" optional="YES" attributeType="Integer 16"/>
        <attribute name="startDayOfWeek" optional="YES" attributeType="Integer 16"/>
        <attribute name="valueString" optional="YES" attributeType="String"/>
        <relationship name="value" optional="YES" maxCount="1" destinationEntity="Object" inverseName="event" inverseEntity="Object"/>
        <attribute name="startDate" attributeType="Date"/>
        <attribute name="valueClass" optional="YES" attributeType="Integer 16"/>
        <attribute name="valueTypeCode" optional="YES" attributeType="Integer 64"/>
        </entity>
        <entity name="Histogram">
        <attribute name="streamTypeCode" optional="YES" attributeType="Integer 64"/>
        <attribute name="deviceIdentifier" optional="YES" attributeType="String"/>
        <attribute name="endDate" optional="YES" attributeType="Date"/>
        <attribute name="startDate" optional="YES" attributeType="Date"/>
        <attribute name="identifier" optional="YES" attributeType="String"/>
        <relationship name="value" optional="YES" toMany="YES" maxCount="0" destinationEntity="HistogramValue" inverseName="histogram" inverseEntity="HistogramValue"/>
        <attribute name="streamName" optional="YES" attributeType="String"/>
        </entity>
        <entity name="HistogramValue">
        <relationship name="histogram" optional="YES" maxCount="1" destinationEntity="Histogram" inverseName="value" inverseEntity="Histogram"/>
        <attribute name="count" optional="YES" attributeType="Integer 64"/>
        <attribute name="integerValue" optional="YES" attributeType="Integer 64"/>
        <attribute name="stringValue" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Identifier" parentEntity="Object">
        <attribute name="string" optional="YES" attributeType="String"/>
        <attribute name="identifierType" optional="YES" attributeType="Integer 64"/>
        </entity>
        <entity name="Object" isAbstract="YES">
        <relationship name="source" optional="YES" maxCount="1" destinationEntity="Source" inverseName="product" inverseEntity="Source"/>
        <attribute name="uuidHash" optional="YES" attributeType="Integer 64"/>
        <attribute name="creationDate" optional="YES" attributeType="Date"/>
        <relationship name="event" optional="YES" maxCount="1" destinationEntity="Event" inverseName="value" inverseEntity="Event"/>
        <attribute name="uuid" optional="YES" attributeType="String"/>
        <relationship name="relationObject" optional="YES" toMany="YES" maxCount="0" destinationEntity="Relation" inverseName="object" inverseEntity="Relation"/>
        <attribute name="metadata" optional="YES" attributeType="Binary"/>
        <relationship name="relationSubject" optional="YES" toMany="YES" maxCount="0" destinationEntity="Relation" inverseName="subject" inverseEntity="Relation"/>
        <relationship name="objectAttributeValue" optional="YES" toMany="YES" maxCount="0" destinationEntity="CustomMetadata" inverseName="object" inverseEntity="CustomMetadata"/>
        </entity>
        <entity name="Quantity" parentEntity="Object">
        <attribute name="quantityType" optional="YES" attributeType="Integer 64"/>
        <attribute name="doubleValue" optional="YES" attributeType="Double"/>
        </entity>
        <entity name="Relation" parentEntity="Object">
        <relationship name="subject" optional="YES" maxCount="1" destinationEntity="Object" inverseName="relationSubject" inverseEntity="Object"/>
        <attribute name="verbPhrase" optional="YES" attributeType="String"/>
        <relationship name="object" optional="YES" maxCount="1" destinationEntity="Object" inverseName="relationObject" inverseEntity="Object"/>
        </entity>
        <entity name="Source">
        <attribute name="itemID" optional="YES" attributeType="String"/>
        <attribute name="userID" optional="YES" attributeType="Integer 16"/>
        <relationship name="product" optional="YES" toMany="YES" maxCount="0" destinationEntity="Object" inverseName="source" inverseEntity="Object"/>
        <attribute name="groupID" optional="YES" attributeType="String"/>
        <attribute name="deviceID" optional="YES" attributeType="String"/>
        <attribute name="sourceID" optional="YES" attributeType="String"/>
        <attribute name="bundleID" optional="YES" attributeType="String"/>
        </entity>
        <entity name="StructuredMetadata">
        <attribute name="_DKSearchFeedbackMetadataKey__client" optional="YES" attributeType="String"/>
        <attribute name="_DKAudioMetadataKey__portName" optional="YES" attributeType="String"/>
        <attribute name="_DKLocationApplicationActivityMetadataKey__phoneNumbers" optional="YES" attributeType="Binary"/>
        <attribute name="_DKLocationApplicationActivityMetadataKey__country" optional="YES" attributeType="String"/>
        <attribute name="_DKNowPlayingMetadataKey__album" optional="YES" attributeType="String"/>
        <attribute name="_DKIntentMetadataKey__intentClass" optional="YES" attributeType="String"/>
        <attribute name="_DKBluetoothMetadataKey__address" optional="YES" attributeType="String"/>
        <attribute name="_DKAudioMetadataKey__dataSources" optional="YES" attributeType="String"/>
        <attribute name="_DKNowPlayingMetadataKey__genre" optional="YES" attributeType="String"/>
        <attribute name="_DKPeriodMetadataKey__periodStart" optional="YES" attributeType="Date"/>
        <attribute name="_DKApplicationActivityMetadataKey__userActivityUUID" optional="YES" attributeType="String"/>
        <relationship name="event" optional="YES" toMany="YES" maxCount="0" destinationEntity="Event" inverseName="structuredMetadata" inverseEntity="Event"/>
        <attribute name="_DKApplicationMetadataKey__backboardState" optional="YES" attributeType="String"/>
        <attribute name="_DKMetadataHomeKitAccessoryControl__serviceType" optional="YES" attributeType="String"/>
        <attribute name="_DKNowPlayingMetadataKey__elapsed" optional="YES" attributeType="Double"/>
        <attribute name="_DKSunriseSunsetMetadataKey__previousSunset" optional="YES" attributeType="Date"/>
        <attribute name="_DKPeriodMetadataKey__periodEnd" optional="YES" attributeType="Date"/>
        <attribute name="_DKLocationApplicationActivityMetadataKey__city" optional="YES" attributeType="String"/>
        <attribute name="_DKSearchFeedbackMetadataKey__contactID" optional="YES" attributeType="String"/>
        <attribute name="_DKLocationApplicationActivityMetadataKey__locationName" optional="YES" attributeType="String"/>
        <attribute name="_DKSunriseSunsetMetadataKey__nextSunset" optional="YES" attributeType="Date"/>
        <attribute name="_QPMetricsMetadataKey__QueryList" optional="YES" attributeType="Binary"/>
        <attribute name="_DKMetadataHomeKitScene__actionSetName" optional="YES" attributeType="String"/>
        <attribute name="_DKApplicationMetadataKey__launchReason" optional="YES" attributeType="String"/>
        <attribute name="_DKMetadataHomeAppView__viewUUID" optional="YES" attributeType="String"/>
        <attribute name="_DKLocationApplicationActivityMetadataKey__fullyFormattedAddress" optional="YES" attributeType="String"/>
        <attribute name="_DKBulletinBoardMetadataKey__hasDate" optional="YES" attributeType="Boolean"/>
        <attribute name="_DKMetadataHomeKitScene__actionSetType" optional="YES" attributeType="String"/>
        <attribute name="com_apple_calendarUIKit_userActivity_endDate" optional="YES" attributeType="Integer 64"/>
        <attribute name="_DKApplicationActivityMetadataKey__itemRelatedContentURL" optional="YES" attributeType="URI"/>
        <attribute name="_DKApplicationActivityMetadataKey__title" optional="YES" attributeType="String"/>
        <attribute name="kCDCSNotificationOptionClientIdentifierKey" optional="YES" attributeType="String"/>
        <attribute name="_DKMetadataHomeAppView__homeUUID" optional="YES" attributeType="String"/>
        <attribute name="_DKBluetoothMetadataKey__deviceType" optional="YES" attributeType="Integer 16"/>
        <attribute name="_DKIntentMetadataKey__serializedInteraction" optional="YES" attributeType="Binary"/>
        <attribute name="_CDPortraitMetadataKey__decayRate" optional="YES" attributeType="Double"/>
        <attribute name="com_apple_calendarUIKit_userActivity_date" optional="YES" attributeType="Integer 64"/>
        <attribute name="_DKAppInstallMetadataKey__primaryCategory" optional="YES" attributeType="String"/>
        <attribute name="_QPMetricsMetadataKey__TimeStamp" optional="YES" attributeType="Double"/>
        <attribute name="_DKNowPlayingMetadataKey__title" optional="YES" attributeType="String"/>
        <attribute name="_DKApplicationActivityMetadataKey__activityType" optional="YES" attributeType="String"/>
        <attribute name="_DKMetadataHomeKitAccessoryControl__homeUUID" optional="YES" attributeType="String"/>
        <attribute name="_DKBluetoothMetadataKey__name" optional="YES" attributeType="String"/>
        <attribute name="_CDEntityMetadataKey__name" optional="YES" attributeType="String"/>
        <attribute name="_DKApplicationActivityMetadataKey__userActivityRequiredString" optional="YES" attributeType="String"/>
        <attribute name="_DKBulletinBoardMetadataKey__title" optional="YES" attributeType="String"/>
        <attribute name="_DKMetadataHomeKitScene__actionSetUUID" optional="YES" attributeType="String"/>
        <attribute name="_DKMicroLocationMetadataKey__locationDistribution" optional="YES" attributeType="String"/>
        <attribute name="_QPMetricsMetadataKey__QueryEngaged" optional="YES" attributeType="Boolean"/>
        <attribute name="_DKApplicationMetadataKey__extensionHostIdentifier" optional="YES" attributeType="String"/>
        <attribute name="_DKIntentMetadataKey__donatedBySiri" optional="YES" attributeType="Boolean"/>
        <attribute name="_DKApplicationActivityMetadataKey__itemRelatedUniqueIdentifier" optional="YES" attributeType="String"/>
        <attribute name="_DKAudioMetadataKey__preferredDataSource" optional="YES" attributeType="String"/>
        <attribute name="_DKBulletinBoardMetadataKey__feed" optional="YES" attributeType="String"/>
        <attribute name="_DKSearchFeedbackMetadataKey__interactionType" optional="YES" attributeType="Integer 64"/>
        <attribute name="_DKMetadataHomeKitAccessoryControl__characteristicType" optional="YES" attributeType="String"/>
        <attribute name="_DKNowPlayingMetadataKey__duration" optional="YES" attributeType="Double"/>
        <attribute name="com_apple_calendarUIKit_userActivity_externalID" optional="YES" attributeType="String"/>
        <attribute name="_DKApplicationActivityMetadataKey__expirationDate" optional="YES" attributeType="Date"/>
        <attribute name="kCDCSNotificationOptionPersistentPredicateStringKey" optional="YES" attributeType="String"/>
        <attribute name="_DKLocationMetadataKey__identifier" optional="YES" attributeType="String"/>
        <attribute name="_QPMetricsMetadataKey__ResultEngaged" optional="YES" attributeType="Boolean"/>
        <attribute name="_DKAppInstallMetadataKey__isInstall" optional="YES" attributeType="Boolean"/>
        <attribute name="_DKAudioMetadataKey__selectedDataSource" optional="YES" attributeType="String"/>
        <attribute name="_DKLocationApplicationActivityMetadataKey__latitude" optional="YES" attributeType="Double"/>
        <attribute name="_DKLocationMetadataKey__latitude" optional="YES" attributeType="Double"/>
        <attribute name="_DKBulletinBoardMetadataKey__message" optional="YES" attributeType="String"/>
        <attribute name="_DKIntentMetadataKey__intentVerb" optional="YES" attributeType="String"/>
        <attribute name="_DKLocationApplicationActivityMetadataKey__postalCode_v2" optional="YES" attributeType="String"/>
        <attribute name="_DKBulletinBoardMetadataKey__subtitle" optional="YES" attributeType="String"/>
        <attribute name="_DKMetadataHomeAppView__viewName" optional="YES" attributeType="String"/>
        <attribute name="_DKAppInstallMetadataKey__subCategories" optional="YES" attributeType="Binary"/>
        <attribute name="_QPMetricsMetadataKey__CandidateList" optional="YES" attributeType="Binary"/>
        <attribute name="_DKCallMetadataKey__interaction" optional="YES" attributeType="String"/>
        <attribute name="_DKSunriseSunsetMetadataKey__currentSunrise" optional="YES" attributeType="Date"/>
        <attribute name="_QPMetricsMetadataKey__Query" optional="YES" attributeType="String"/>
        <attribute name="_DKMetadataHomeKitAccessoryControl__clientName" optional="YES" attributeType="String"/>
        <attribute name="_DKNowPlayingMetadataKey__playing" optional="YES" attributeType="Integer 16"/>
        <attribute name="_DKApplicationActivityMetadataKey__isPubliclyIndexable" optional="YES" attributeType="Boolean"/>
        <attribute name="_DKAudioMetadataKey__routeChangeReason" optional="YES" attributeType="Integer 16"/>
        <attribute name="_DKMetadataHomeAppView__viewInformation" optional="YES" attributeType="String"/>
        <attribute name="_DKLocationApplicationActivityMetadataKey__longitude" optional="YES" attributeType="Double"/>
        <attribute name="metadataHash" attributeType="String"/>
        <attribute name="_DKMetadataHomeKitScene__clientName" optional="YES" attributeType="String"/>
        <attribute name="_DKSafariHistoryMetadataKey__title" optional="YES" attributeType="String"/>
        <attribute name="_DKGlanceLaunchMetadata__deviceIdentifier" optional="YES" attributeType="Integer 64"/>
        <attribute name="_DKSunriseSunsetMetadataKey__previousSunrise" optional="YES" attributeType="Date"/>
        <attribute name="_CDPortraitMetadataKey__osBuild" optional="YES" attributeType="String"/>
        <attribute name="_DKLocationApplicationActivityMetadataKey__thoroughfare" optional="YES" attributeType="String"/>
        <attribute name="_DKNowPlayingMetadataKey__identifier" optional="YES" attributeType="Integer 64"/>
        <attribute name="_DKMetadataHomeKitAccessoryControl__accessoryUUID" optional="YES" attributeType="String"/>
        <attribute name="_DKSunriseSunsetMetadataKey__isDaylight" optional="YES" attributeType="Boolean"/>
        <attribute name="_DKDeviceIdMetadataKey__deviceIdentifier" optional="YES" attributeType="String"/>
        <attribute name="_DKLocationApplicationActivityMetadataKey__stateOrProvince" optional="YES" attributeType="String"/>
        <attribute name="_DKMetadataHomeKitScene__homeUUID" optional="YES" attributeType="String"/>
        <attribute name="_CDEntityMetadataKey__bestLanguage" optional="YES" attributeType="String"/>
        <attribute name="_DKAppInstallMetadataKey__title" optional="YES" attributeType="String"/>
        <attribute name="_DKLocationMetadataKey__longitude" optional="YES" attributeType="Double"/>
        <attribute name="_DKMicroLocationMetadataKey__microLocationDistribution" optional="YES" attributeType="String"/>
        <attribute name="_DKNowPlayingMetadataKey__artist" optional="YES" attributeType="String"/>
        <attribute name="_CDPortraitMetadataKey__assetVersion" optional="YES" attributeType="Integer 16"/>
        <attribute name="_DKBatterySaverMetadataKey__source" optional="YES" attributeType="String"/>
        <attribute name="_DKApplicationMetadataKey__processIdentifier" optional="YES" attributeType="Integer 16"/>
        <attribute name="_DKMetadataHomeKitScene__sceneName" optional="YES" attributeType="String"/>
        <attribute name="_DKSunriseSunsetMetadataKey__currentSunset" optional="YES" attributeType="Date"/>
        <attribute name="_DKLocationApplicationActivityMetadataKey__URL" optional="YES" attributeType="String"/>
        <attribute name="_DKAudioMetadataKey__portType" optional="YES" attributeType="String"/>
        <attribute name="_CDPortraitMetadataKey__algorithm" optional="YES" attributeType="Integer 16"/>
        <attribute name="_DKMetadataHomeKitAccessoryControl__accessoryName" optional="YES" attributeType="String"/>
        <attribute name="_DKSunriseSunsetMetadataKey__nextSunrise" optional="YES" attributeType="Date"/>
        <attribute name="_DKLocationApplicationActivityMetadataKey__subThoroughfare" optional="YES" attributeType="String"/>
        <attribute name="_DKAudioMetadataKey__channels" optional="YES" attributeType="String"/>
        <attribute name="_DKCalendarMetadataKey__interaction" optional="YES" attributeType="String"/>
        <attribute name="_DKAudioMetadataKey__identifier" optional="YES" attributeType="String"/>
        <attribute name="_DKApplicationActivityMetadataKey__itemIdentifier" optional="YES" attributeType="String"/>
        <attribute name="_DKApplicationMetadataKey__extensionContainingBundleIdentifier" optional="YES" attributeType="String"/>
        <attribute name="_DKSearchFeedbackMetadataKey__suggestionType" optional="YES" attributeType="Integer 64"/>
        <attribute name="_DKIntentMetadataKey__intentHandlingStatus" optional="YES" attributeType="Integer 64"/>
        <attribute name="_DKMetadataHomeKitAccessoryControl__serviceName" optional="YES" attributeType="String"/>
        <attribute name="_DKLocationApplicationActivityMetadataKey__displayName" optional="YES" attributeType="String"/>
        <attribute name="kCDCSNotificationOptionClientLaunchKey" optional="YES" attributeType="String"/>
        <attribute name="_CDPortraitMetadataKey__score" optional="YES" attributeType="Double"/>
        </entity>
        </model>
        """#

    /// The model of `09-plaso-ios-accounts3`.
    static let accounts3 = #"""
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="AccessOptionsKey">
        <attribute name="name" attributeType="String"/>
        <relationship name="owningAccountTypes" toMany="YES" maxCount="0" destinationEntity="AccountType" inverseName="accessKeys" inverseEntity="AccountType"/>
        </entity>
        <entity name="Account">
        <attribute name="dataclassProperties" optional="YES" attributeType="Transformable"/>
        <attribute name="lastCredentialRenewalRejectionDate" optional="YES" attributeType="Date"/>
        <relationship name="childAccounts" optional="YES" toMany="YES" maxCount="0" destinationEntity="Account" inverseName="parentAccount" inverseEntity="Account"/>
        <relationship name="enabledDataclasses" optional="YES" toMany="YES" maxCount="0" destinationEntity="Dataclass" inverseName="enabledAccounts" inverseEntity="Dataclass"/>
        <relationship name="provisionedDataclasses" optional="YES" toMany="YES" maxCount="0" destinationEntity="Dataclass" inverseName="provisionedAccounts" inverseEntity="Dataclass"/>
        <attribute name="active" attributeType="Boolean"/>
        <relationship name="parentAccount" optional="YES" maxCount="1" destinationEntity="Account" inverseName="childAccounts" inverseEntity="Account"/>
        <attribute name="authenticated" optional="YES" attributeType="Boolean"/>
        <attribute name="identifier" attributeType="String"/>
        <attribute name="date" optional="YES" attributeType="Date"/>
        <relationship name="accountType" optional="YES" maxCount="1" destinationEntity="AccountType" inverseName="accounts" inverseEntity="AccountType"/>
        <attribute name="accountDescription" optional="YES" attributeType="String"/>
        <attribute name="authenticationType" optional="YES" attributeType="String"/>
        <attribute name="owningBundleID" optional="YES" attributeType="String"/>
        <attribute name="supportsAuthentication" optional="YES" attributeType="Boolean"/>
        <attribute name="username" optional="YES" attributeType="String"/>
        <attribute name="visible" attributeType="Boolean"/>
        <relationship name="customProperties" optional="YES" toMany="YES" maxCount="0" destinationEntity="AccountProperty" inverseName="owner" inverseEntity="AccountProperty"/>
        <attribute name="credentialType" optional="YES" attributeType="String"/>
        </entity>
        <entity name="AccountProperty">
        <attribute name="key" optional="YES" attributeType="String"/>
        <attribute name="value" optional="YES" attributeType="Transformable"/>
        <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Account" inverseName="customProperties" inverseEntity="Account"/>
        </entity>
        <entity name="AccountType">
        <relationship name="supportedDataclasses" optional="YES" toMany="YES" maxCount="0" destinationEntity="Dataclass" inverseName="supportedTypes" inverseEntity="Dataclass"/>
        <attribute name="obsolete" optional="YES" attributeType="Boolean"/>
        <relationship name="permission" optional="YES" toMany="YES" maxCount="0" destinationEntity="Authorization" inverseName="accountType" inverseEntity="Authorization"/>
        <relationship name="accessKeys" optional="YES" toMany="YES" maxCount="0" destinationEntity="AccessOptionsKey" inverseName="owningAccountTypes" inverseEntity="AccessOptionsKey"/>
        <attribute name="identifier" optional="YES" attributeType="String"/>
        <attribute name="supportsMultipleAccounts" attributeType="Boolean"/>
        <attribute name="accountTypeDescription" optional="YES" attributeType="String"/>
        <attribute name="credentialProtectionPolicy" optional="YES" attributeType="String"/>
        <attribute name="visibility" attributeType="Integer 16"/>
        <attribute name="owningBundleID" optional="YES" attributeType="String"/>
        <attribute name="supportsAuthentication" attributeType="Boolean"/>
        <attribute name="encryptAccountProperties" attributeType="Boolean"/>
        <relationship name="accounts" optional="YES" toMany="YES" maxCount="0" destinationEntity="Account" inverseName="accountType" inverseEntity="Account"/>
        <relationship name="syncableDataclasses" optional="YES" toMany="YES" maxCount="0" destinationEntity="Dataclass" inverseName="syncableTypes" inverseEntity="Dataclass"/>
        <attribute name="credentialType" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Authorization">
        <attribute name="grantedPermissions" optional="YES" attributeType="String"/>
        <attribute name="options" optional="YES" attributeType="Transformable"/>
        <relationship name="accountType" optional="YES" maxCount="1" destinationEntity="AccountType" inverseName="permission" inverseEntity="AccountType"/>
        <attribute name="bundleID" optional="YES" attributeType="String"/>
        </entity>
        <entity name="CredentialItem">
        <attribute name="persistent" attributeType="Boolean"/>
        <attribute name="expirationDate" attributeType="Date"/>
        <attribute name="accountIdentifier" attributeType="String"/>
        <attribute name="serviceName" attributeType="String"/>
        </entity>
        <entity name="Dataclass">
        <relationship name="syncableTypes" optional="YES" toMany="YES" maxCount="0" destinationEntity="AccountType" inverseName="syncableDataclasses" inverseEntity="AccountType"/>
        <relationship name="supportedTypes" optional="YES" toMany="YES" maxCount="0" destinationEntity="AccountType" inverseName="supportedDataclasses" inverseEntity="AccountType"/>
        <attribute name="name" attributeType="Transformable"/>
        <relationship name="enabledAccounts" optional="YES" toMany="YES" maxCount="0" destinationEntity="Account" inverseName="enabledDataclasses" inverseEntity="Account"/>
        <relationship name="provisionedAccounts" optional="YES" toMany="YES" maxCount="0" destinationEntity="Account" inverseName="provisionedDataclasses" inverseEntity="Account"/>
        </entity>
        </model>
        """#
}
