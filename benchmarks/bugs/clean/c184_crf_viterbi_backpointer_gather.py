import torch
import torch.nn as nn


class LinearChainCRF(nn.Module):
    def __init__(self, num_tags):
        super().__init__()
        self.num_tags = num_tags
        self.transitions = nn.Parameter(torch.randn(num_tags, num_tags) * 0.1)  # [from, to]
        self.start = nn.Parameter(torch.randn(num_tags) * 0.1)  # [T]

    def gold_score(self, emissions, tags, mask):
        # emissions: [B, L, T], tags: [B, L], mask: [B, L] bool (left-aligned)
        emit = emissions.gather(2, tags.unsqueeze(-1)).squeeze(-1)  # [B, L]
        trans = self.transitions[tags[:, :-1], tags[:, 1:]]  # [B, L - 1]
        score = self.start.gather(0, tags[:, 0]) + emit[:, 0]  # [B]
        return score + (emit[:, 1:] * mask[:, 1:]).sum(1) + (trans * mask[:, 1:]).sum(1)

    def viterbi(self, emissions, mask):
        # emissions: [B, L, T], mask: [B, L]
        B, L, T = emissions.shape
        score = self.start + emissions[:, 0]  # [B, T]
        history = []
        for t in range(1, L):
            cand = score.unsqueeze(2) + self.transitions.unsqueeze(0)  # [B, T_from, T_to]
            best, best_prev = cand.max(dim=1)  # [B, T], [B, T]
            new_score = best + emissions[:, t]  # [B, T]
            step = mask[:, t].unsqueeze(1)  # [B, 1]
            score = torch.where(step, new_score, score)
            keep = torch.arange(T).expand(B, T)  # padding steps point to themselves
            history.append(torch.where(step, best_prev, keep))  # [B, T]
        best_score, last = score.max(dim=1)  # [B], [B]
        path = [last]
        for bp in reversed(history):
            last = bp.gather(1, last.unsqueeze(1)).squeeze(1)  # [B]
            path.append(last)
        return best_score, torch.stack(path[::-1], dim=1)  # [B], [B, L]


if __name__ == "__main__":
    torch.manual_seed(0)
    crf = LinearChainCRF(num_tags=3)
    emissions = torch.randn(2, 5, 3)  # [B, L, T]
    lengths = torch.tensor([5, 3])
    mask = torch.arange(5)[None, :] < lengths[:, None]  # [B, L]
    with torch.no_grad():
        best_score, path = crf.viterbi(emissions, mask)
        for b in range(2):
            n = int(lengths[b])
            best = None
            for flat in range(3 ** n):
                tags = [(flat // 3 ** i) % 3 for i in range(n)]
                s = crf.start[tags[0]] + sum(emissions[b, i, tags[i]] for i in range(n))
                s = s + sum(crf.transitions[tags[i - 1], tags[i]] for i in range(1, n))
                if best is None or s > best[0]:
                    best = (s, tags)
            assert torch.allclose(best_score[b], best[0], atol=1e-5)
            assert path[b, :n].tolist() == best[1]
            padded = torch.cat([path[b, :n], path[b, n - 1].repeat(5 - n)])
            assert torch.allclose(crf.gold_score(emissions[b : b + 1], padded[None], mask[b : b + 1])[0], best[0], atol=1e-5)
    print("ok")
