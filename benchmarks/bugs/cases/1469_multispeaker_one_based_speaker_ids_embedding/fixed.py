import torch
import torch.nn as nn
import torch.nn.functional as F

HPARAMS = {
    "data": {"n_symbols": 30, "n_mel_channels": 8},
    "model": {"hidden_channels": 16, "gin_channels": 8, "n_speakers": 12},
}

FILELIST = """\
DUMMY/1/1_0000.wav|1|geuneun gwaenchaneun cheok
DUMMY/4/4_0003.wav|4|yongdoneul akkyeo sseora
DUMMY/7/7_0011.wav|7|jangsaga jal andwaeseo
DUMMY/12/12_0002.wav|12|sahul dongan simhage
"""


def load_filepaths_sid_text(text):
    return [line.split("|") for line in text.strip().splitlines()]


class TextMelSpeakerLoader:
    def __init__(self, filelist_text, hparams):
        self.items = load_filepaths_sid_text(filelist_text)
        self.n_symbols = hparams["data"]["n_symbols"]
        self.n_mels = hparams["data"]["n_mel_channels"]

    def text_to_sequence(self, text):
        return torch.tensor([ord(c) % self.n_symbols for c in text])

    def __getitem__(self, i):
        path, sid, text = self.items[i]
        g = torch.Generator().manual_seed(i)
        mel = torch.randn(self.n_mels, 3 * len(text), generator=g)
        # speaker ids in the filelist are 1-based; the embedding table is 0-based
        return self.text_to_sequence(text), mel, int(sid) - 1

    def __len__(self):
        return len(self.items)


def collate(batch):
    max_text = max(x[0].numel() for x in batch)
    text = torch.zeros(len(batch), max_text, dtype=torch.long)
    lengths = torch.tensor([x[0].numel() for x in batch])
    for i, (t, _, _) in enumerate(batch):
        text[i, : t.numel()] = t
    sid = torch.tensor([x[2] for x in batch])
    return text, lengths, sid


class SpeakerConditionedEncoder(nn.Module):
    def __init__(self, n_symbols, hidden_channels, gin_channels, n_speakers):
        super().__init__()
        self.emb = nn.Embedding(n_symbols, hidden_channels)
        self.emb_g = nn.Embedding(n_speakers, gin_channels)
        self.cond = nn.Conv1d(gin_channels, hidden_channels, 1)
        self.proj = nn.Conv1d(hidden_channels, hidden_channels, 3, padding=1)

    def forward(self, text, lengths, g):
        g = F.normalize(self.emb_g(g)).unsqueeze(-1)
        mask = (torch.arange(text.size(1))[None] < lengths[:, None]).unsqueeze(1).float()
        x = self.emb(text).transpose(1, 2) * mask
        return self.proj(x + self.cond(g)) * mask, g


if __name__ == "__main__":
    torch.manual_seed(0)
    dataset = TextMelSpeakerLoader(FILELIST, HPARAMS)
    text, lengths, sid = collate([dataset[i] for i in range(len(dataset))])
    model = SpeakerConditionedEncoder(HPARAMS["data"]["n_symbols"], **HPARAMS["model"])
    with torch.no_grad():
        out, g = model(text, lengths, sid)
    assert out.shape == (4, 16, int(lengths.max()))
    for i, item in enumerate(dataset.items):
        row = model.emb_g.weight[int(item[1]) - 1]
        assert torch.allclose(g[i, :, 0], row / row.norm(), atol=1e-6)
    print("ok")
