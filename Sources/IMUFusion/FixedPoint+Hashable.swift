// Hashable for the host only. In Embedded Swift a Hashable conformance brings in Hasher, whose
// per-process seed needs `arc4random_buf` from the firmware's C library; nothing in the filter
// hashes, so the firmware build leaves it out and the types are only Equatable there.
#if !hasFeature(Embedded)

extension Q30: Hashable {
    public func hash(into hasher: inout Hasher) { hasher.combine(raw) }
}

extension Q29: Hashable {
    public func hash(into hasher: inout Hasher) { hasher.combine(raw) }
}

extension Q16: Hashable {
    public func hash(into hasher: inout Hasher) { hasher.combine(raw) }
}

extension FixedVector3: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(x.raw)
        hasher.combine(y.raw)
        hasher.combine(z.raw)
    }
}

extension FixedQuaternion: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(w.raw)
        hasher.combine(x.raw)
        hasher.combine(y.raw)
        hasher.combine(z.raw)
    }
}

extension FixedMatrix3: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(row0)
        hasher.combine(row1)
        hasher.combine(row2)
    }
}

#endif
