import Dispatch
import FaroCommandLine
import FaroCore
import FoundationEssentials
import Glibc

/// One recorded stream of a static beacon at a known distance, as the distance benchmark reads it from
/// `data/evaluation/*.csv` (columns `dataset,series,role,distance_m,time_s,rssi`).
struct RecordedSeries {
    var dataset: String
    var name: String
    /// `calibration` series only set the dataset's measured power; `evaluation` series are scored.
    var isCalibration: Bool
    var distance: Double
    var samples: [(time: Double, rssi: Double)]
}

/// A recorded dataset: its series and the measured power (dBm at 1 m) calibrated from its calibration series.
struct RecordedDataset {
    var name: String
    var series: [RecordedSeries]

    /// The median of the calibration samples, each brought to 1 m with the free-space exponent (n = 2):
    /// `rssi + 20·log10(d)`. Evaluation samples never enter it.
    var measuredPower: Double? {
        var normalised: [Double] = []
        for s in series where s.isCalibration {
            for sample in s.samples { normalised.append(sample.rssi + 20 * log10(s.distance)) }
        }
        return DistanceBenchStatistics.median(normalised)
    }
}

/// Reads the evaluation CSV files of a directory.
enum RecordedDataLoader {
    static func load(directory: String) throws -> [RecordedDataset] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".csv") }
                .sorted()
        } catch {
            throw CommandFailure(description: "cannot list \(directory): \(error)")
        }
        var byDataset: [String: [String: RecordedSeries]] = [:]
        var order: [String] = []
        for name in names {
            let path = directory + "/" + name
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw CommandFailure(description: "cannot read \(path)")
            }
            var lines = text.split(whereSeparator: \.isNewline).makeIterator()
            guard let header = lines.next() else { continue }
            let columns = header.split(separator: ",").map { $0.trimmingWhitespace() }
            let required = ["dataset", "series", "role", "distance_m", "time_s", "rssi"]
            var index: [String: Int] = [:]
            for column in required {
                guard let i = columns.firstIndex(of: column) else {
                    throw CommandFailure(description: "\(path): missing column '\(column)'")
                }
                index[column] = i
            }
            var lineNumber = 1
            while let line = lines.next() {
                lineNumber += 1
                let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                func field(_ column: String) -> String? {
                    guard let i = index[column], i < fields.count else { return nil }
                    return fields[i]
                }
                guard let dataset = field("dataset"), let seriesName = field("series"), let role = field("role"),
                    let distance = field("distance_m").flatMap(Double.init),
                    let time = field("time_s").flatMap(Double.init), let rssi = field("rssi").flatMap(Double.init)
                else {
                    throw CommandFailure(description: "\(path): line \(lineNumber): malformed row")
                }
                if byDataset[dataset] == nil {
                    byDataset[dataset] = [:]
                    order.append(dataset)
                }
                let key = seriesName
                if byDataset[dataset]?[key] == nil {
                    byDataset[dataset]?[key] = RecordedSeries(
                        dataset: dataset, name: seriesName,
                        isCalibration: role == "calibration",
                        distance: distance, samples: [])
                }
                byDataset[dataset]?[key]?.samples.append((time, rssi))
            }
        }
        return order.map { name in
            let series = (byDataset[name] ?? [:]).values.sorted { $0.name < $1.name }
            return RecordedDataset(name: name, series: series)
        }
    }
}

/// Small statistics helpers for the benchmark.
enum DistanceBenchStatistics {
    static func median(_ values: [Double]) -> Double? { quantile(values, 0.5) }

    /// The q-quantile with linear interpolation between order statistics.
    static func quantile(_ values: [Double], _ q: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let position = q * Double(sorted.count - 1)
        let low = Int(position.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        let fraction = position - Double(low)
        return sorted[low] + (sorted[high] - sorted[low]) * fraction
    }
}
