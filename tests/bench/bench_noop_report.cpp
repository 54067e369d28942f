// SPDX-License-Identifier: Apache-2.0
// The performance report of docs/performance.md: `ccm-backend apply --noop` of N stable file
// resources side by side with the disk floor and the peers, whole processes, ratios from the same
// run, and the picture docs/images/bench-noop.png (gnuplot). Then a real apply of 1,000 changed
// files (ours and cf-agent), an empty manifest, and validate and render of 10,000 resources.
//
// Every tool gets the same files and the same promises, declared its own idiomatic way:
//   ours      ccm-backend apply --noop manifest.yaml (content, owner, group, mode)
//   floor     sha256sum of the same files, one process: reading and hashing them, nothing else
//   cf-agent  cf-agent -K -n -f policy.cf: `content` (compared by digest), perms mode/owners/groups
//   puppet    puppet apply --noop manifest.pp: file resources with content, owner, group, mode
// `-K` makes cf-agent ignore its promise locks, which would otherwise skip a run that follows
// another within a minute: no tool keeps anything from one run to the next that decides the result.
//
//   bench_noop_report                           the whole report
//   bench_noop_report --sizes 100,1000          the noop table for these N only
//   bench_noop_report --plot FILE               draw the picture to FILE (default: the source
//                                               tree's docs/images/bench-noop.png)
#include "bench_files.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using ccm::bench::BenchFile;
using ccm::bench::ProcessRun;
using ccm::bench::runProcess;

/// A size is not run when the straight line through the previous two sizes' medians is over this
/// there. Half of the two minutes a run may take, because Puppet grows faster than linearly: the
/// line from 1,000 and 10,000 files (6 s, 20 s) said 83 s for 50,000, which took 191 s.
constexpr double skipAboveMilliseconds = 60'000;

/// The most runs a median is taken of.
constexpr int fullRuns = 5;

/// The full path of `name` in PATH (and the sbin directories), or nothing.
std::optional<std::string> findProgram(const std::string &name)
{
    std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
    path += ":/usr/sbin:/sbin:/usr/bin:/bin";
    std::stringstream directories(path);
    std::string directory;
    while (std::getline(directories, directory, ':')) {
        const fs::path candidate = fs::path(directory) / name;
        if (!directory.empty() && ::access(candidate.c_str(), X_OK) == 0)
            return candidate.string();
    }
    return std::nullopt;
}

/// How many runs a median is taken of, from the time of the first: fewer for the slow peers, so
/// that the report finishes in minutes.
int runsAfter(double firstMilliseconds)
{
    if (firstMilliseconds > 40'000)
        return 1;
    if (firstMilliseconds > 10'000)
        return 3;
    return fullRuns;
}

/// One tool of the noop table: how to run it over a workload directory, and how to tell from its
/// output that it found everything stable.
struct Tool {
    std::string name;
    std::optional<std::string> program;
    std::vector<std::string> (*arguments)(const std::string &program, const fs::path &dir);
    bool (*stable)(const ProcessRun &run, std::size_t n);
    bool inFilesDirectory = false; // run with DIR/files as working directory
};

std::vector<std::string> oursArguments(const std::string &program, const fs::path &dir)
{
    return {program, "apply", "--noop", (dir / "manifest.yaml").string()};
}

bool oursStable(const ProcessRun &run, std::size_t n)
{
    return run.status == 0
        && ccm::bench::summaryLine(run.output)
               .starts_with("Resources: total=" + std::to_string(n) + " stable=" + std::to_string(n) + " ");
}

/// Relative names keep 50,000 paths well inside the kernel's argument limit.
std::vector<std::string> floorArguments(const std::string &program, const fs::path &dir)
{
    std::vector<std::string> argv {program};
    for (const auto &entry : fs::directory_iterator(dir / "files"))
        argv.push_back(entry.path().filename().string());
    std::sort(argv.begin() + 1, argv.end());
    return argv;
}

bool floorStable(const ProcessRun &run, std::size_t n)
{
    return run.status == 0 && static_cast<std::size_t>(std::count(run.output.begin(), run.output.end(), '\n')) == n;
}

std::vector<std::string> cfAgentArguments(const std::string &program, const fs::path &dir)
{
    return {program, "-K", "-n", "-f", (dir / "policy.cf").string()};
}

/// cf-agent says what it would do as warnings ("Should update file ...") and exits 0 either way.
bool cfAgentStable(const ProcessRun &run, std::size_t)
{
    return run.status == 0 && run.output.find("Should ") == std::string::npos
        && run.output.find("error:") == std::string::npos;
}

std::vector<std::string> puppetArguments(const std::string &program, const fs::path &dir)
{
    return {program, "apply", "--noop", "--detailed-exitcodes", (dir / "manifest.pp").string()};
}

/// With --detailed-exitcodes Puppet exits 0 when nothing would change; noop changes read "(noop)".
bool puppetStable(const ProcessRun &run, std::size_t)
{
    return run.status == 0 && run.output.find("(noop)") == std::string::npos;
}

/// The CFEngine policy promising the same files: content, mode, owner and group. Literal paths, as
/// the manifest's (a promiser is a regular expression otherwise).
bool writeCfEnginePolicy(const std::vector<BenchFile> &files, const fs::path &policyPath)
{
    std::ofstream policy(policyPath);
    policy << "body common control\n{\n  bundlesequence => { \"main\" };\n}\n\n"
           << "body perms wanted\n{\n  mode => \"0644\";\n  owners => { \"" << ::getuid() << "\" };\n"
           << "  groups => { \"" << ::getgid() << "\" };\n  rxdirs => \"false\";\n}\n\n"
           << "bundle agent main\n{\n  files:\n";
    for (const BenchFile &file : files) {
        policy << "    \"" << file.path.string() << "\"\n"
               << "      pathtype => \"literal\",\n"
               << "      content => \"" << file.content.substr(0, file.content.size() - 1) << "$(const.n)\",\n"
               << "      perms => wanted;\n";
    }
    policy << "}\n";
    policy.close();
    // cf-agent refuses a policy file that others can write.
    fs::permissions(policyPath, fs::perms(0600));
    return static_cast<bool>(policy);
}

/// The Puppet manifest declaring the same file resources.
bool writePuppetManifest(const std::vector<BenchFile> &files, const fs::path &manifestPath)
{
    std::ofstream manifest(manifestPath);
    for (const BenchFile &file : files) {
        manifest << "file { '" << file.path.string() << "':\n"
                 << "  ensure  => file,\n"
                 << "  content => \"" << file.content.substr(0, file.content.size() - 1) << "\\n\",\n"
                 << "  owner   => " << ::getuid() << ",\n"
                 << "  group   => " << ::getgid() << ",\n"
                 << "  mode    => '0644',\n}\n";
    }
    return static_cast<bool>(manifest.flush());
}

/// A workload directory: the files as wanted and every tool's declaration of them.
fs::path makeWorkload(const std::string &name, std::size_t n)
{
    const fs::path dir = fs::temp_directory_path() / ("ccm-bench-report-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(dir);
    const std::vector<BenchFile> files = ccm::bench::benchFiles(n, dir);
    fs::create_directories(dir / "files");
    ccm::bench::writeWantedFiles(files);
    ccm::bench::writeFileManifest(files, dir / "manifest.yaml");
    writeCfEnginePolicy(files, dir / "policy.cf");
    writePuppetManifest(files, dir / "manifest.pp");
    return dir;
}

struct Measurement {
    bool installed = false;
    int runs = 0; // 0 with installed: skipped
    double expectedMilliseconds = 0; // why it was skipped
    double medianMilliseconds = 0;
    long peakKiB = 0;
    bool stable = true;
    std::string firstOutput; // of a run that did not find everything stable
};

double median(std::vector<double> samples)
{
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

std::string formatTime(double milliseconds)
{
    char text[32];
    if (milliseconds >= 10'000)
        std::snprintf(text, sizeof text, "%.1f s", milliseconds / 1000);
    else if (milliseconds >= 100)
        std::snprintf(text, sizeof text, "%.0f ms", milliseconds);
    else
        std::snprintf(text, sizeof text, "%.1f ms", milliseconds);
    return text;
}

std::string formatCell(const Measurement &m)
{
    if (!m.installed)
        return "not installed";
    if (m.runs == 0)
        return "skipped (~" + formatTime(m.expectedMilliseconds) + ")";
    std::string cell = formatTime(m.medianMilliseconds);
    if (m.runs != fullRuns)
        cell += m.runs == 1 ? " (1 run)" : " (" + std::to_string(m.runs) + " runs)";
    if (!m.stable)
        cell += " NOT STABLE";
    return cell;
}

std::string formatRatio(const Measurement &ours, const Measurement &other)
{
    if (!other.installed || other.runs == 0 || other.medianMilliseconds <= 0)
        return "-";
    char text[32];
    const double ratio = ours.medianMilliseconds / other.medianMilliseconds;
    std::snprintf(text, sizeof text, ratio >= 0.1 ? "%.2f" : "%.3f", ratio);
    return text;
}

std::string withThousands(std::size_t n)
{
    const std::string digits = std::to_string(n);
    std::string text;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            text += ',';
        text += digits[i];
    }
    return text;
}

using History = std::vector<std::pair<std::size_t, Measurement>>;

/// The expected time of one run at n from a tool's previous sizes: the straight line through the
/// last two, as start-up time dominates small sizes; 0 (run it) with fewer than two. A size after a
/// skipped one is skipped too.
double expectedMilliseconds(const History &history, std::size_t n)
{
    if (history.empty())
        return 0;
    const auto &[lastN, last] = history.back();
    if (last.installed && last.runs == 0)
        return last.expectedMilliseconds * static_cast<double>(n) / static_cast<double>(lastN);
    if (history.size() < 2)
        return 0;
    const auto &[firstN, first] = history[history.size() - 2];
    const double slope
        = std::max(0.0, (last.medianMilliseconds - first.medianMilliseconds) / static_cast<double>(lastN - firstN));
    return last.medianMilliseconds + slope * static_cast<double>(n - lastN);
}

/// Runs each tool over a workload of n stable files, taking turns so that noise from the rest of the
/// machine falls on every tool alike. `history` holds each tool's results at the previous sizes.
std::vector<Measurement> measureNoop(const std::vector<Tool> &tools, std::size_t n, const std::vector<History> &history)
{
    const fs::path dir = makeWorkload("noop-" + std::to_string(n), n);
    std::vector<Measurement> results(tools.size());
    std::vector<std::vector<double>> samples(tools.size());
    std::vector<std::vector<std::string>> argvs(tools.size());
    for (std::size_t t = 0; t < tools.size(); ++t) {
        Measurement &m = results[t];
        m.installed = tools[t].program.has_value();
        if (!m.installed)
            continue;
        m.expectedMilliseconds = expectedMilliseconds(history[t], n);
        m.runs = m.expectedMilliseconds > skipAboveMilliseconds ? 0 : fullRuns;
        argvs[t] = tools[t].arguments(*tools[t].program, dir);
    }
    for (int round = 0; round < fullRuns; ++round) {
        for (std::size_t t = 0; t < tools.size(); ++t) {
            Measurement &m = results[t];
            if (!m.installed || round >= m.runs)
                continue;
            const ProcessRun run
                = runProcess(argvs[t], tools[t].inFilesDirectory ? (dir / "files").string() : std::string());
            samples[t].push_back(run.milliseconds);
            m.peakKiB = std::max(m.peakKiB, run.peakKiB);
            if (m.stable && !tools[t].stable(run, n)) {
                m.stable = false;
                m.firstOutput = run.output.substr(0, 2000);
            }
            if (round == 0)
                m.runs = runsAfter(run.milliseconds);
        }
    }
    for (std::size_t t = 0; t < tools.size(); ++t) {
        if (!samples[t].empty())
            results[t].medianMilliseconds = median(samples[t]);
        if (!results[t].stable)
            std::fprintf(stderr, "warning: %s did not find the %zu files stable:\n%s\n", tools[t].name.c_str(), n,
                results[t].firstOutput.c_str());
    }
    fs::remove_all(dir);
    return results;
}

/// Draws time against N, log-log, with the gnuplot script beside this file.
void drawPicture(const std::vector<Tool> &tools, const std::vector<std::size_t> &sizes,
    const std::vector<std::vector<Measurement>> &table, const std::string &picture)
{
    const std::optional<std::string> gnuplot = findProgram("gnuplot");
    if (!gnuplot) {
        std::printf("\ngnuplot is not installed (scripts/install-bench-deps): no picture drawn\n");
        return;
    }
    const fs::path data = fs::temp_directory_path() / ("ccm-bench-report-" + std::to_string(::getpid()) + ".dat");
    {
        std::ofstream out(data);
        out << "# N";
        for (const Tool &tool : tools)
            out << ' ' << tool.name;
        out << " (seconds, - for not measured)\n";
        for (std::size_t row = 0; row < sizes.size(); ++row) {
            out << sizes[row];
            for (const Measurement &m : table[row]) {
                if (m.installed && m.runs > 0)
                    out << ' ' << m.medianMilliseconds / 1000;
                else
                    out << " -";
            }
            out << '\n';
        }
    }
    const ProcessRun run = runProcess({*gnuplot, "-e", "data='" + data.string() + "'; output='" + picture + "'",
        CCM_BENCH_SOURCE_DIR "/bench_noop_report.gp"});
    fs::remove(data);
    if (run.status == 0)
        std::printf("\npicture: %s\n", picture.c_str());
    else
        std::printf("\ngnuplot failed (exit %d): %s\n", run.status, run.output.c_str());
}

/// The median of five runs of argv; prints a line with the figure.
ProcessRun medianRun(const std::string &what, const std::vector<std::string> &argv, int runs = 5)
{
    std::vector<double> samples;
    ProcessRun last;
    long peak = 0;
    for (int i = 0; i < runs; ++i) {
        last = runProcess(argv);
        samples.push_back(last.milliseconds);
        peak = std::max(peak, last.peakKiB);
    }
    last.milliseconds = median(samples);
    last.peakKiB = peak;
    std::printf("| %s | %s | %.1f MiB | exit %d |\n", what.c_str(), formatTime(last.milliseconds).c_str(),
        static_cast<double>(peak) / 1024.0, last.status);
    return last;
}

/// Puts every file of the workload in a state its resource changes: other content, mode 0600.
void makeChanged(const std::vector<BenchFile> &files)
{
    for (const BenchFile &file : files) {
        std::ofstream(file.path, std::ios::binary | std::ios::trunc) << "old " << file.content;
        fs::permissions(file.path, fs::perms(0600));
    }
}

bool allWanted(const std::vector<BenchFile> &files)
{
    for (const BenchFile &file : files) {
        std::ifstream in(file.path, std::ios::binary);
        const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (content != file.content || (fs::status(file.path).permissions() & fs::perms::all) != fs::perms(0644))
            return false;
    }
    return true;
}

/// A real apply of 1,000 changed files by ours and by cf-agent, each from the same changed state.
void benchmarkChangedApply(const std::string &backend, const std::optional<std::string> &cfAgent)
{
    constexpr std::size_t n = 1000;
    const fs::path dir = makeWorkload("apply", n);
    const std::vector<BenchFile> files = ccm::bench::benchFiles(n, dir);
    struct Applier {
        std::string name;
        std::vector<std::string> argv;
    };
    std::vector<Applier> appliers {{"ccm-backend apply", {backend, "apply", (dir / "manifest.yaml").string()}}};
    if (cfAgent)
        appliers.push_back({"cf-agent -K", {*cfAgent, "-K", "-f", (dir / "policy.cf").string()}});
    std::vector<std::vector<double>> samples(appliers.size());
    std::vector<bool> converged(appliers.size(), true);
    for (int round = 0; round < 5; ++round) {
        for (std::size_t a = 0; a < appliers.size(); ++a) {
            makeChanged(files);
            ::sync();
            const ProcessRun run = runProcess(appliers[a].argv);
            samples[a].push_back(run.milliseconds);
            converged[a] = converged[a] && allWanted(files);
        }
    }
    std::printf("\nA real apply of %s changed files (content and mode), median of 5:\n\n", withThousands(n).c_str());
    std::printf("| tool | median | per file | converged |\n|---|---|---|---|\n");
    for (std::size_t a = 0; a < appliers.size(); ++a) {
        const double ms = median(samples[a]);
        std::printf("| %s | %s | %.0f us | %s |\n", appliers[a].name.c_str(), formatTime(ms).c_str(), ms * 1000 / n,
            converged[a] ? "yes" : "NO");
    }
    if (!cfAgent)
        std::printf("| cf-agent -K | not installed | | |\n");
    if (cfAgent)
        std::printf("\nours/cf-agent: %.2f\n", median(samples[0]) / median(samples[1]));
    fs::remove_all(dir);
}

/// An empty manifest, and validate and render at 1,000, 10,000 and 50,000 resources, to show they
/// stay linear.
void benchmarkOthers(const std::string &backend)
{
    std::printf("\nours, whole process, median of 5:\n\n| what | median | peak RSS | status |\n|---|---|---|---|\n");
    const fs::path empty
        = fs::temp_directory_path() / ("ccm-bench-report-" + std::to_string(::getpid()) + "-empty.yaml");
    std::ofstream(empty) << "ccm:\n  resources: []\n";
    medianRun("apply --noop, empty manifest", {backend, "apply", "--noop", empty.string()});
    fs::remove(empty);
    for (const std::size_t n : {std::size_t {1'000}, std::size_t {10'000}, std::size_t {50'000}}) {
        const fs::path dir = makeWorkload("validate", n);
        const std::string manifest = (dir / "manifest.yaml").string();
        medianRun("validate, " + withThousands(n) + " resources", {backend, "validate", manifest});
        medianRun("render, " + withThousands(n) + " resources", {backend, "render", manifest});
        fs::remove_all(dir);
    }
}

/// The headline figures of `make bench-quick`, one line each with its target: the noop of 1,000
/// files against the floor, and the empty manifest. Ours and the floor only, median of 5.
void benchmarkQuick(const std::string &backend)
{
    const std::vector<Tool> tools {
        {"ours", backend, oursArguments, oursStable},
        {"floor", findProgram("sha256sum"), floorArguments, floorStable, true},
    };
    const std::vector<Measurement> noop = measureNoop(tools, 1'000, std::vector<History>(tools.size()));
    if (!noop[0].stable)
        std::fprintf(stderr, "warning: ours did not find the 1000 files stable:\n%s\n", noop[0].firstOutput.c_str());
    std::printf("noop 1000 files / floor     %7s x    target 3   (ours %s, floor %s)\n",
        formatRatio(noop[0], noop[1]).c_str(), formatTime(noop[0].medianMilliseconds).c_str(),
        formatCell(noop[1]).c_str());
    const fs::path empty
        = fs::temp_directory_path() / ("ccm-bench-quick-" + std::to_string(::getpid()) + "-empty.yaml");
    std::ofstream(empty) << "ccm:\n  resources: []\n";
    // Beside it, the cost of starting any program on this machine: `true`, run in turn with ours.
    const std::optional<std::string> floorProgram = findProgram("true");
    std::vector<double> samples;
    std::vector<double> floorSamples;
    bool failed = false;
    // Each run is a few milliseconds: eleven keep one slow start from moving the median.
    for (int i = 0; i < 11; ++i) {
        const ProcessRun run = runProcess({backend, "apply", "--noop", empty.string()});
        samples.push_back(run.milliseconds);
        failed = failed || run.status != 0;
        if (floorProgram)
            floorSamples.push_back(runProcess({*floorProgram}).milliseconds);
    }
    fs::remove(empty);
    const std::string floor
        = floorSamples.empty() ? std::string() : "   (starting `true`: " + formatTime(median(floorSamples)) + ")";
    std::printf("empty manifest, apply --noop %6.1f ms   target 8%s%s\n", median(samples), floor.c_str(),
        failed ? "   (FAILED: non-zero exit)" : "");
}

std::vector<std::size_t> parseSizes(const std::string &text)
{
    std::vector<std::size_t> sizes;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        sizes.push_back(std::strtoull(item.c_str(), nullptr, 10));
    return sizes;
}

} // namespace

int main(int argc, char **argv)
{
    ccm::bench::startLauncher();
    std::vector<std::size_t> sizes {100, 1'000, 10'000, 50'000};
    std::string picture = CCM_SOURCE_DIR "/docs/images/bench-noop.png";
    bool tableOnly = false;
    if (argc == 2 && std::string(argv[1]) == "--quick") {
        benchmarkQuick(CCM_BACKEND_PATH);
        return 0;
    }
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string option = argv[i];
        if (option == "--sizes") {
            sizes = parseSizes(argv[i + 1]);
            tableOnly = true;
        } else if (option == "--plot") {
            picture = argv[i + 1];
        } else {
            std::fprintf(stderr, "usage: %s [--quick | [--sizes N,N...] [--plot FILE.png]]\n", argv[0]);
            return 2;
        }
    }
    const std::string backend = CCM_BACKEND_PATH;
    const std::vector<Tool> tools {
        {"ours", backend, oursArguments, oursStable},
        {"floor", findProgram("sha256sum"), floorArguments, floorStable, true},
        {"cf-agent", findProgram("cf-agent"), cfAgentArguments, cfAgentStable},
        {"puppet", findProgram("puppet"), puppetArguments, puppetStable},
    };

    std::vector<std::vector<Measurement>> table;
    std::vector<History> history(tools.size());
    for (const std::size_t n : sizes) {
        std::fprintf(stderr, "measuring noop of %zu files...\n", n);
        table.push_back(measureNoop(tools, n, history));
        for (std::size_t t = 0; t < tools.size(); ++t)
            history[t].emplace_back(n, table.back()[t]);
    }

    std::printf("\nNoop of N stable file resources, whole process, median of 5 unless said:\n\n");
    std::printf(
        "| N | ours | floor | cf-agent | puppet | ours/floor | ours/cf-agent | ours/puppet | ours peak RSS |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    for (std::size_t row = 0; row < sizes.size(); ++row) {
        const std::vector<Measurement> &m = table[row];
        std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %.1f MiB |\n", withThousands(sizes[row]).c_str(),
            formatCell(m[0]).c_str(), formatCell(m[1]).c_str(), formatCell(m[2]).c_str(), formatCell(m[3]).c_str(),
            formatRatio(m[0], m[1]).c_str(), formatRatio(m[0], m[2]).c_str(), formatRatio(m[0], m[3]).c_str(),
            static_cast<double>(m[0].peakKiB) / 1024.0);
    }
    std::printf("\nskipped: the line through the previous two N's medians is over %.0f s there.\n",
        skipAboveMilliseconds / 1000);
    drawPicture(tools, sizes, table, picture);
    if (tableOnly)
        return 0;
    benchmarkChangedApply(backend, tools[2].program);
    benchmarkOthers(backend);
    return 0;
}
