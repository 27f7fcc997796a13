import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class MelBandMaskHead(nn.Module):
    """Mel-band roformer output head: bands overlap in frequency, so the per-band masks
    are scattered back to STFT bins and averaged over the bands covering each bin."""

    def __init__(self, dim: int, num_stems: int, freqs_per_band: list[list[int]], num_freqs: int):
        super().__init__()
        self.num_stems = num_stems
        freq_indices = torch.tensor([f for band in freqs_per_band for f in band])
        self.register_buffer("freq_indices", freq_indices, persistent=False)
        counts = torch.bincount(freq_indices, minlength=num_freqs).float()
        self.register_buffer("bands_covering_bin", counts, persistent=False)
        self.stem_heads = nn.ModuleList(nn.Linear(dim, 1) for _ in range(num_stems))

    def forward(
        self, band_feats: Float[Tensor, "b f_sel t d"], spec: Float[Tensor, "b f t"]
    ) -> Float[Tensor, "b n f t"]:
        batch, _, frames, _ = band_feats.shape
        masks: Float[Tensor, "b n f_sel t"] = torch.stack(
            [est(band_feats).squeeze(-1).sigmoid() for est in self.stem_heads], dim=1
        )
        spec = spec.unsqueeze(1)
        bin_index: Int[Tensor, "b 1 f_sel t"] = self.freq_indices[None, None, :, None].expand(batch, 1, -1, frames)
        mask_sum = torch.zeros_like(spec).scatter_add_(2, bin_index, masks)
        mask_mean = mask_sum / self.bands_covering_bin[:, None].clamp(min=1e-8)
        return spec * mask_mean


def make_bands(num_freqs: int, num_bands: int, overlap: int) -> list[list[int]]:
    step = num_freqs // num_bands
    return [list(range(max(0, i * step - overlap), min(num_freqs, (i + 1) * step + overlap))) for i in range(num_bands)]


if __name__ == "__main__":
    torch.manual_seed(0)
    num_freqs, num_stems = 24, 2
    bands = make_bands(num_freqs, num_bands=6, overlap=2)
    head = MelBandMaskHead(dim=8, num_stems=num_stems, freqs_per_band=bands, num_freqs=num_freqs)
    f_sel = sum(len(b) for b in bands)
    band_feats = torch.randn(2, f_sel, 5, 8)
    spec = torch.rand(2, num_freqs, 5)
    with torch.no_grad():
        est = head(band_feats, spec)
        masks = torch.stack([e(band_feats).squeeze(-1).sigmoid() for e in head.stem_heads], dim=1)
    ref = torch.zeros(2, num_stems, num_freqs, 5)
    for b in range(2):
        for n in range(num_stems):
            for j, f in enumerate(head.freq_indices.tolist()):
                ref[b, n, f] += masks[b, n, j] / head.bands_covering_bin[f]
            ref[b, n] = ref[b, n] * spec[b]
    target = torch.rand(2, num_stems, num_freqs, 5)
    print("separated spectrogram shape:", tuple(est.shape), "expected", tuple(ref.shape))
    print("L1 loss vs target:", (est - target).abs().mean().item(), "reference loss:", (ref - target).abs().mean().item())
    print("stem 1 max |diff| vs per-bin reference:", (est.expand_as(ref)[:, 1] - ref[:, 1]).abs().max().item())
