import IMUDrivers

extension BoardCatalog {
    /// Hat profiles that fit what a survey found, best first (real hats only; ties with the
    /// best are all given, for the user to choose among).
    public func hatSuggestions(for survey: BusSurvey) -> [String] {
        var detected = survey.addresses.map { DetectedDevice(address: $0) }
        for chip in survey.chips {
            for address in [chip.address] + (chip.magnetometerAddress.map { [$0] } ?? []) {
                if let i = detected.firstIndex(where: { $0.address == address }) { detected[i].chip = chip.model }
            }
        }
        let profiles = ((try? allProfiles()) ?? []).filter { $0.kind == .hat }
        let ranked = BoardDetection.suggestions(for: detected, among: profiles)
        guard let best = ranked.first else { return [] }
        return ranked.filter { $0.ties(with: best) }.map(\.name)
    }

    /// The best-matching hat profile for `chip` of a survey, or a profile made on the spot for
    /// the chip alone (mounted as the device) when no profile fits.
    public func bestProfile(for survey: BusSurvey, chip: FoundChip) -> (BoardProfile, IMUPlacement) {
        if let name = hatSuggestions(for: survey).first,
           let profile = try? profile(named: name),
           let placement = profile.imus.first(where: { $0.address == chip.address }) {
            return (profile, placement)
        }
        let placement = IMUPlacement(chip: chip.model, address: chip.address, magnetometerAddress: chip.magnetometerAddress)
        let profile = BoardProfile(name: "detected", title: "\(chip.model.rawValue) (no board profile)", kind: .hat, imus: [placement])
        return (profile, placement)
    }
}
