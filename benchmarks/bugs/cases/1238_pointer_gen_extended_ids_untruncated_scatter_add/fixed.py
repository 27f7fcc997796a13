import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, UNK = 0, 1


class ArticleDataset(torch.utils.data.Dataset):
    def __init__(self, articles, vocab, max_enc_steps):
        self.articles = articles
        self.vocab = vocab
        self.max_enc_steps = max_enc_steps

    def __len__(self):
        return len(self.articles)

    def __getitem__(self, i):
        words = self.articles[i].split()[: self.max_enc_steps]
        enc_ids = [self.vocab.get(w, UNK) for w in words]
        oovs, ext_ids = [], []
        for w in words:
            if w in self.vocab:
                ext_ids.append(self.vocab[w])
            else:
                if w not in oovs:
                    oovs.append(w)
                ext_ids.append(len(self.vocab) + oovs.index(w))
        return enc_ids, ext_ids, oovs


def collate(batch):
    def pad(seqs):
        n = max(len(s) for s in seqs)
        return torch.tensor([s + [PAD] * (n - len(s)) for s in seqs])
    enc, ext, oovs = zip(*batch)
    return pad(enc), pad(ext), max(len(o) for o in oovs)


class PointerGenerator(nn.Module):
    def __init__(self, vocab_size, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden, padding_idx=PAD)
        self.query = nn.Parameter(torch.randn(hidden))
        self.out = nn.Linear(hidden, vocab_size)
        self.gen = nn.Linear(hidden, 1)

    def forward(self, enc_ids, ext_ids, max_oovs):
        """One decoding step of the pointer-generator.

        Args:
            enc_ids: encoder token ids, shape ``(batch, enc_len)``.
            ext_ids: the same tokens in the extended vocabulary, shape ``(batch, enc_len)``.
            max_oovs: number of article OOVs in the largest example.

        Returns:
            final distribution over the extended vocabulary, shape ``(batch, vocab + max_oovs)``.
        """
        h = self.embed(enc_ids)
        scores = (h @ self.query).masked_fill(enc_ids == PAD, -1e9)
        attn_dist = scores.softmax(-1)
        context = (attn_dist.unsqueeze(-1) * h).sum(1)
        p_gen = torch.sigmoid(self.gen(context))
        vocab_dist = p_gen * F.softmax(self.out(context), -1)
        extra = vocab_dist.new_zeros(vocab_dist.shape[0], max_oovs)
        final = torch.cat([vocab_dist, extra], dim=1)
        final.scatter_add_(1, ext_ids, (1 - p_gen) * attn_dist)
        return final


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = {w: i for i, w in enumerate(["<pad>", "<unk>", "the", "storm", "hit", "coast", "on", "city"])}
    articles = ["the storm hit the coast of Zephyria on friday", "the city on the coast"]
    loader = torch.utils.data.DataLoader(ArticleDataset(articles, vocab, max_enc_steps=6),
                                         batch_size=2, collate_fn=collate)
    enc_ids, ext_ids, max_oovs = next(iter(loader))
    model = PointerGenerator(len(vocab), hidden=16)
    final = model(enc_ids, ext_ids, max_oovs)
    assert enc_ids.shape == ext_ids.shape
    h = model.embed(enc_ids)
    attn = (h @ model.query).masked_fill(enc_ids == PAD, -1e9).softmax(-1)
    ctx = (attn.unsqueeze(-1) * h).sum(1)
    p_gen = torch.sigmoid(model.gen(ctx))
    vdist = F.softmax(model.out(ctx), -1)
    for b in range(enc_ids.shape[0]):
        ref = [p_gen[b, 0].item() * vdist[b, v].item() for v in range(len(vocab))] + [0.0] * max_oovs
        for t in range(enc_ids.shape[1]):
            ref[ext_ids[b, t].item()] += (1 - p_gen[b, 0].item()) * attn[b, t].item()
        assert torch.allclose(final[b], torch.tensor(ref), atol=1e-6)
    assert torch.allclose(final.sum(-1), torch.ones(2), atol=1e-5)
    print("ok")
