import torch
import torch.nn as nn
import torch.nn.functional as F


class SignTranslationDataset(torch.utils.data.Dataset):
    def __init__(self, records, tokenizer_vocab):
        self.records = records
        self.vocab = tokenizer_vocab

    def __len__(self):
        return len(self.records)

    def __getitem__(self, i):
        text = self.records[i]["target"]
        ids = [self.vocab.get(ch, self.vocab["<unk>"]) for ch in text] + [self.vocab["</s>"]]
        return {"labels": ids, "frames": self.records[i]["frames"]}


def pad_collate(samples, pad_id):
    max_len = max(len(s["labels"]) for s in samples)
    labels = torch.zeros(len(samples), max_len)
    labels.fill_(pad_id)
    for row, s in enumerate(samples):
        labels[row, : len(s["labels"])] = torch.tensor(s["labels"])
    frames = torch.stack([s["frames"] for s in samples])
    return {"labels": labels, "frames": frames}


class TinyDecoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab_size"], cfg["d_model"], padding_idx=cfg["pad_id"])
        self.frame_proj = nn.Linear(cfg["frame_dim"], cfg["d_model"])

    def forward(self, frames, labels):
        memory = self.frame_proj(frames).mean(dim=1, keepdim=True)
        tok = F.embedding(labels, self.embed.weight, padding_idx=self.embed.padding_idx)
        return tok + memory


def train_step(model, batch):
    out = model(batch["frames"], batch["labels"])
    return out.pow(2).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = {"<pad>": 0, "</s>": 1, "<unk>": 2}
    vocab.update({c: i + 3 for i, c in enumerate("abcdefgh ")})
    cfg = {"vocab_size": len(vocab), "d_model": 8, "pad_id": 0, "frame_dim": 6}
    records = [{"target": t, "frames": torch.randn(5, cfg["frame_dim"])} for t in ["bad cab", "ace", "head fed"]]
    ds = SignTranslationDataset(records, vocab)
    loader = torch.utils.data.DataLoader(ds, batch_size=3, collate_fn=lambda b: pad_collate(b, cfg["pad_id"]))
    model = TinyDecoder(cfg)
    for batch in loader:
        print("loss", train_step(model, batch).item())
