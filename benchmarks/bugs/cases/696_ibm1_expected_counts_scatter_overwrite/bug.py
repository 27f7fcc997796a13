import torch


class IBMModel1:
    """Lexical translation table t(f | e) trained with EM.

    Args:
        src_vocab: number of source (e) word types.
        tgt_vocab: number of target (f) word types.
    """

    def __init__(self, src_vocab, tgt_vocab):
        self.E, self.F = src_vocab, tgt_vocab
        self.t = torch.full((src_vocab, tgt_vocab), 1.0 / tgt_vocab)

    def e_step(self, src_ids, tgt_ids):
        """Expected counts for one sentence pair.

        Args:
            src_ids: LongTensor [S] source word ids.
            tgt_ids: LongTensor [T] target word ids.
        Returns:
            counts: [E, F] expected count of every (e, f) link.
        """
        probs = self.t[src_ids][:, tgt_ids]                 # [S, T]
        post = probs / probs.sum(dim=0, keepdim=True)       # alignment posterior per target word
        flat = (src_ids.unsqueeze(1) * self.F + tgt_ids.unsqueeze(0)).reshape(-1)
        counts = torch.zeros(self.E * self.F)
        counts.scatter_(0, flat, post.reshape(-1))
        return counts.view(self.E, self.F)

    def m_step(self, counts):
        self.t = counts / counts.sum(dim=1, keepdim=True).clamp(min=1e-12)


def train(model, corpus, iters):
    for _ in range(iters):
        total = torch.zeros(model.E, model.F)
        for src_ids, tgt_ids in corpus:
            total += model.e_step(src_ids, tgt_ids)
        model.m_step(total)
    return model


if __name__ == "__main__":
    corpus = [
        (torch.tensor([0, 1, 1]), torch.tensor([0, 1, 1])),   # "the house house" / "la maison maison"
        (torch.tensor([0, 2]), torch.tensor([0, 2])),
        (torch.tensor([1, 2]), torch.tensor([1, 2])),
    ]
    model = IBMModel1(src_vocab=3, tgt_vocab=3)
    counts = model.e_step(*corpus[0])
    print("expected counts, pair 0:\n", counts)
    print("total mass:", counts.sum().item(), "(target length 3)")
