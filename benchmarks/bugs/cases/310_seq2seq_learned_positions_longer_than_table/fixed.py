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


def make_batch(lengths, vocab, max_length, pad_idx=0):
    lengths = [min(n, max_length) for n in lengths]
    max_len = max(lengths)
    batch = torch.full((len(lengths), max_len), pad_idx)
    for i, n in enumerate(lengths):
        batch[i, :n] = torch.randint(1, vocab, (n,))
    return batch, batch == pad_idx


def encode_corpus(encoder, corpus_lengths, hp):
    outputs = []
    for lengths in corpus_lengths:
        src, mask = make_batch(lengths, hp["src_vocab"], hp["max_length"])
        outputs.append(encoder(src, mask))
    return outputs


def main():
    torch.manual_seed(0)
    encoder = Encoder(HPARAMS).eval()
    corpus_lengths = [[12, 30, 7], [64, 80, 101], [5, 9]]
    outs = encode_corpus(encoder, corpus_lengths, HPARAMS)
    assert [tuple(o.shape) for o in outs] == [(3, 30, 32), (3, 100, 32), (2, 9, 32)]
    torch.manual_seed(1)
    src, mask = make_batch([101, 40], HPARAMS["src_vocab"], HPARAMS["max_length"])
    with torch.no_grad():
        emb = encoder.tok_embedding(src) * encoder.scale + encoder.pos_embedding(
            torch.arange(src.size(1)).unsqueeze(0).repeat(2, 1))
        for b in range(2):
            for t in range(src.size(1)):
                ref = encoder.tok_embedding.weight[int(src[b, t])] * encoder.scale + encoder.pos_embedding.weight[t]
                assert torch.allclose(emb[b, t], ref)
    print("ok")


if __name__ == "__main__":
    main()
