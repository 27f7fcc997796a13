import torch
import torch.nn as nn
import torch.nn.functional as F


class ResidualCodec(nn.Module):
    def __init__(self, num_quantizers=4, codebook_size=64, dim=24, hop_length=8):
        super().__init__()
        self.codebooks = nn.Parameter(torch.randn(num_quantizers, codebook_size, dim))
        self.decoder = nn.ConvTranspose1d(dim, 1, kernel_size=hop_length, stride=hop_length)

    def decode_from_codebook_indices(self, codes):
        # codes: [b, n, q] codebook ids, one column per quantizer
        quantized = 0.0
        for q in range(codes.shape[-1]):
            quantized = quantized + F.embedding(codes[..., q], self.codebooks[q])  # [b, n, d]
        return self.decoder(quantized.transpose(1, 2))  # [b, 1, n * hop]


def mask_out_after_eos(ids, eos_id, pad_id):
    # ids: [b, n] -> everything after the first eos becomes pad_id, eos included
    is_eos = ids == eos_id
    after_eos = is_eos.cumsum(dim=-1) > 0
    return ids.masked_fill(after_eos, pad_id)


class CoarseToWave:
    def __init__(self, codec, num_coarse_quantizers, pad_id=-1):
        self.codec = codec
        self.num_coarse = num_coarse_quantizers
        self.pad_id = pad_id

    @torch.no_grad()
    def generate(self, coarse_flat, eos_id, fine_token_ids):
        # coarse_flat: [b, n * q_coarse] sampled coarse tokens (eos may appear early)
        # fine_token_ids: [b, n, q_fine]
        b = coarse_flat.shape[0]
        coarse_flat = mask_out_after_eos(coarse_flat, eos_id, self.pad_id)
        coarse_token_ids = coarse_flat.view(b, -1, self.num_coarse)  # [b, n, q_coarse]
        coarse_and_fine_ids = torch.cat((coarse_token_ids, fine_token_ids), dim=-1)  # [b, n, q]
        wav = self.codec.decode_from_codebook_indices(coarse_and_fine_ids)  # [b, 1, n * hop]
        return wav.squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    codec = ResidualCodec()
    wrapper = CoarseToWave(codec, num_coarse_quantizers=2)
    eos_id = 64
    coarse = torch.randint(0, 64, (2, 10 * 2))
    coarse[1, 14] = eos_id  # second sample stops after 7 frames
    fine = torch.randint(0, 64, (2, 10, 2))
    wavs = wrapper.generate(coarse, eos_id, fine)
    print([tuple(w.shape) for w in wavs])
