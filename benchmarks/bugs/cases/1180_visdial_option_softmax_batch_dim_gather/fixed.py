import torch
from torch import nn


class DiscriminativeDecoder(nn.Module):
    def __init__(self, hidden=16, vocab=40):
        super().__init__()
        self.word_embed = nn.Embedding(vocab, hidden)
        self.option_rnn = nn.GRU(hidden, hidden, batch_first=True)

    def forward(self, encoder_output, options):
        # encoder_output: (B, H); options: (B, N, L) token ids of the N candidate answers
        B, N, L = options.shape
        _, h = self.option_rnn(self.word_embed(options.view(B * N, L)))
        option_enc = h[-1].view(B, N, -1)                               # (B, N, H)
        scores = torch.bmm(option_enc, encoder_output.unsqueeze(-1))    # (B, N, 1)
        return scores.squeeze(-1)                                       # (B, N)


def gt_option_nll(scores, gt_index):
    # scores: (B, N); gt_index: (B,)
    log_probs = torch.log_softmax(scores, dim=-1)
    return -log_probs.gather(1, gt_index.unsqueeze(1)).squeeze(1)      # (B,)


def gt_ranks(scores, gt_index):
    # rank of the ground-truth option among the N candidates, 1 = best
    probs = torch.softmax(scores, dim=-1)                              # (B, N)
    gt_prob = probs.gather(1, gt_index.unsqueeze(1))                   # (B, 1)
    return (probs > gt_prob).sum(dim=1) + 1


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = DiscriminativeDecoder()
    enc = torch.randn(4, 16)
    options = torch.randint(0, 40, (4, 10, 6))
    gt = torch.tensor([3, 0, 7, 9])
    scores = decoder(enc, options)
    nll, ranks = gt_option_nll(scores, gt), gt_ranks(scores, gt)
    import math
    for b in range(4):
        row = scores[b].tolist()
        lse = math.log(sum(math.exp(v) for v in row))
        assert abs(nll[b].item() - (lse - row[int(gt[b])])) < 1e-4
        assert ranks[b].item() == 1 + sum(1 for v in row if v > row[int(gt[b])])
    print("ok")
