import numpy as np
import torch
import torch.nn as nn


def pad_1d(seqs, pad=0):
    width = max(len(s) for s in seqs)
    return np.stack([np.pad(s, (0, width - len(s)), constant_values=pad) for s in seqs])


def collate_fn(items):
    texts = [it["text"] for it in items]
    mels = [it["mel"] for it in items]
    src_pos = [np.arange(1, len(t) + 1) for t in texts]
    max_mel = max(m.shape[0] for m in mels)
    mel = np.stack([np.pad(m, ((0, max_mel - m.shape[0]), (0, 0))) for m in mels])
    return {
        "text": torch.from_numpy(pad_1d(texts)).long(),
        "src_pos": torch.from_numpy(pad_1d(src_pos)).float(),
        "mel_target": torch.from_numpy(mel).float(),
    }


class PhonemeEncoder(nn.Module):
    def __init__(self, n_symbols=80, max_len=256, d_model=64):
        super().__init__()
        self.symbol_emb = nn.Embedding(n_symbols, d_model, padding_idx=0)
        self.position_enc = nn.Embedding(max_len + 1, d_model, padding_idx=0)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, text, src_pos):
        x = self.symbol_emb(text) + self.position_enc(src_pos)
        return self.proj(torch.relu(x))


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    batch = collate_fn([
        {"text": rng.integers(1, 80, size=n), "mel": rng.standard_normal((4 * n, 20)).astype(np.float32)}
        for n in (7, 12, 9)
    ])
    encoder = PhonemeEncoder()
    hidden = encoder(batch["text"], batch["src_pos"])
    print("encoder output:", tuple(hidden.shape))
