import torch
import torch.nn as nn

HPARAMS = {
    "src_vocab": 120,
    "hid_dim": 32,
    "n_heads": 4,
    "pf_dim": 64,
    "max_length": 100,
}


class Encoder(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.tok_embedding = nn.Embedding(hp["src_vocab"], hp["hid_dim"])
        self.pos_embedding = nn.Embedding(hp["max_length"], hp["hid_dim"])
        self.layer = nn.TransformerEncoderLayer(hp["hid_dim"], hp["n_heads"], hp["pf_dim"], batch_first=True)
        self.scale = hp["hid_dim"] ** 0.5

    def forward(self, src, src_mask):
        batch_size, src_len = src.shape
        pos = torch.arange(0, src_len).unsqueeze(0).repeat(batch_size, 1)
        src = self.tok_embedding(src) * self.scale + self.pos_embedding(pos)
        return self.layer(src, src_key_padding_mask=src_mask)


def make_batch(lengths, vocab, pad_idx=0):
    max_len = max(lengths)
    batch = torch.full((len(lengths), max_len), pad_idx)
    for i, n in enumerate(lengths):
        batch[i, :n] = torch.randint(1, vocab, (n,))
    return batch, batch == pad_idx


def encode_corpus(encoder, corpus_lengths, hp):
    outputs = []
    for lengths in corpus_lengths:
        src, mask = make_batch(lengths, hp["src_vocab"])
        outputs.append(encoder(src, mask))
    return outputs


def main():
    torch.manual_seed(0)
    encoder = Encoder(HPARAMS).eval()
    corpus_lengths = [[12, 30, 7], [64, 80, 101], [5, 9]]
    outs = encode_corpus(encoder, corpus_lengths, HPARAMS)
    print("encoded batches:", [tuple(o.shape) for o in outs])


if __name__ == "__main__":
    main()
