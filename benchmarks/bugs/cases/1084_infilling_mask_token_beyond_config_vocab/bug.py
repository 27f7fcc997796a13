import torch
import torch.nn as nn


class ToyBPETokenizer:
    def __init__(self, words):
        self.vocab = {w: i for i, w in enumerate(["<s>", "<pad>", "</s>", "<unk>"] + words)}
        self.vocab["<mask>"] = len(self.vocab)
        self.mask_token_id = self.vocab["<mask>"]

    def __len__(self):
        return len(self.vocab)

    def encode(self, text):
        return [0] + [self.vocab.get(t, 3) for t in text.split()] + [2]


class DenoisingSeq2Seq(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.shared = nn.Embedding(cfg["vocab_size"], cfg["d_model"], padding_idx=cfg["pad_token_id"])
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(cfg["d_model"], cfg["n_heads"], 2 * cfg["d_model"], batch_first=True), 1
        )
        self.lm_head = nn.Linear(cfg["d_model"], cfg["vocab_size"], bias=False)

    def forward(self, input_ids):
        hidden = self.encoder(self.shared(input_ids))
        return self.lm_head(hidden)


def build_config(base_vocab_words):
    # vocab size taken from the checkpoint's merges file
    return {"vocab_size": 4 + len(base_vocab_words), "d_model": 16, "n_heads": 2, "pad_token_id": 1}


def fill_masks(model, tokenizer, text):
    ids = torch.tensor([tokenizer.encode(text.replace("<mask>", "__M__"))])
    ids[ids == tokenizer.vocab["<unk>"]] = tokenizer.mask_token_id
    logits = model(ids)
    return logits.argmax(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    words = "my friends are cool but they eat too many carbs".split()
    tok = ToyBPETokenizer(words)
    model = DenoisingSeq2Seq(build_config(words)).eval()
    print(fill_masks(model, tok, "my friends are <mask> but they eat too many carbs"))
