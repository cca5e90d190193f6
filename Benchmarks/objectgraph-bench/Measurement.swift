/// One operation measured on both sides.
struct Measurement {
    var operation: String
    var n: Int
    var objectGraph: SideResult
    var raw: SideResult
    /// For `query`: how many fetches each side ran.
    var queries: Int?

    /// ObjectGraph time over raw time.
    var ratio: Double { raw.seconds > 0 ? objectGraph.seconds / raw.seconds : 0 }
    /// ObjectGraph CPU time over raw CPU time.
    var cpuRatio: Double {
        raw.cpuSeconds > 0 ? objectGraph.cpuSeconds / raw.cpuSeconds : 0
    }
    /// ObjectGraph peak RSS over raw peak RSS.
    var memoryRatio: Double {
        raw.peakRSSKB > 0 ? Double(objectGraph.peakRSSKB) / Double(raw.peakRSSKB) : 0
    }
    /// ObjectGraph's growth above its child's baseline over raw's growth above its own.
    var growthRatio: Double {
        let rawGrowth = raw.peakRSSKB - raw.baselineRSSKB
        let growth = objectGraph.peakRSSKB - objectGraph.baselineRSSKB
        return rawGrowth > 0 ? Double(growth) / Double(rawGrowth) : 0
    }
}
