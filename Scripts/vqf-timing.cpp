// Times VQF's 9D update per sample on one BROAD trial, for Scripts/bench-broad.sh: the peer that
// `imu bench fusion` is compared with, built and run on the same machine in the same script run.
//
// It only calls VQF's public C++ API (VQF(Ts), update(gyr, acc, mag), getQuat9D); VQF's sources
// come from the PyPI package vqf 2.1.2 and are compiled next to this file with g++ -O2.
//
//     vqf-timing TRIAL.csv    prints {"ns_per_update": …, "updates": …, "total_seconds": …, "passes": 5}
//
// Best of 5 passes: each pass starts a fresh filter at the first sample (the same work every
// time) and runs it over every row; the fastest pass is the one least disturbed by the rest of
// the (shared) machine.
#include "vqf.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Sample {
    vqf_real_t gyr[3], acc[3], mag[3];
};

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> fields;
    std::stringstream stream(line);
    std::string field;
    while (std::getline(stream, field, ',')) fields.push_back(field);
    return fields;
}

// The trial's rows, columns found by name; acc stays in m/s² (specific force), which is what
// VQF expects. Returns the mean sample period through `ts`.
std::vector<Sample> readTrial(const char* path, double& ts) {
    std::ifstream file(path);
    if (!file) {
        std::fprintf(stderr, "vqf-timing: cannot open %s\n", path);
        std::exit(1);
    }
    std::string line;
    std::getline(file, line);
    const std::vector<std::string> names = split(line);
    const char* wanted[] = {"t", "gyr_x", "gyr_y", "gyr_z", "acc_x", "acc_y", "acc_z", "mag_x", "mag_y", "mag_z"};
    size_t column[10];
    for (int k = 0; k < 10; k++) {
        auto it = std::find(names.begin(), names.end(), wanted[k]);
        if (it == names.end()) {
            std::fprintf(stderr, "vqf-timing: %s:1: no column %s\n", path, wanted[k]);
            std::exit(1);
        }
        column[k] = it - names.begin();
    }
    std::vector<Sample> samples;
    double first = 0, last = 0;
    while (std::getline(file, line)) {
        if (line.empty()) continue;
        const std::vector<std::string> fields = split(line);
        if (fields.size() != names.size()) {
            std::fprintf(stderr, "vqf-timing: %s:%zu: expected %zu fields\n", path, samples.size() + 2, names.size());
            std::exit(1);
        }
        double v[10];
        for (int k = 0; k < 10; k++) v[k] = std::strtod(fields[column[k]].c_str(), nullptr);
        if (samples.empty()) first = v[0];
        last = v[0];
        samples.push_back({{v[1], v[2], v[3]}, {v[4], v[5], v[6]}, {v[7], v[8], v[9]}});
    }
    if (samples.size() < 2) {
        std::fprintf(stderr, "vqf-timing: %s: fewer than two rows\n", path);
        std::exit(1);
    }
    ts = (last - first) / double(samples.size() - 1);
    return samples;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: vqf-timing TRIAL.csv\n");
        return 2;
    }
    double ts = 0;
    const std::vector<Sample> samples = readTrial(argv[1], ts);

    const int passes = 5;
    double best = 1e300;
    double check = 0;  // the filter's output is read, so the updates cannot be optimised away
    for (int pass = 0; pass < passes; pass++) {
        VQF vqf(ts);
        const auto start = std::chrono::steady_clock::now();
        for (const Sample& s : samples) vqf.update(s.gyr, s.acc, s.mag);
        const auto end = std::chrono::steady_clock::now();
        vqf_real_t q[4];
        vqf.getQuat9D(q);
        check += q[0];
        best = std::min(best, std::chrono::duration<double>(end - start).count());
    }
    std::printf("{\"ns_per_update\": %.2f, \"updates\": %zu, \"total_seconds\": %.6f, \"passes\": %d, \"final_w\": %.6f}\n",
                best * 1e9 / double(samples.size()), samples.size(), best, passes, check / passes);
    return 0;
}
