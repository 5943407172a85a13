import Testing
@testable import SiteCore

@Suite struct SplitMix64Tests {
    /// The reference implementation's first outputs for seed 1234567 (Vigna's splitmix64.c).
    @Test func theReferenceSequence() {
        var rng = SplitMix64(seed: 1_234_567)
        #expect(
            [rng.next(), rng.next(), rng.next()] == [
                6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423
            ])
    }
}
