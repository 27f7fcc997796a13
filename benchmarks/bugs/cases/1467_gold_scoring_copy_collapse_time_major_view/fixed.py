import torch
import torch.nn as nn


class CopyGenerator(nn.Module):
    def __init__(self, hidden_size, tgt_vocab_size):
        super().__init__()
        self.linear = nn.Linear(hidden_size, tgt_vocab_size)
        self.linear_copy = nn.Linear(hidden_size, 1)

    def forward(self, hidden, attn, src_map):
        batch = src_map.size(1)
        prob = torch.softmax(self.linear(hidden), dim=1)
        p_copy = torch.sigmoid(self.linear_copy(hidden))
        out_prob = prob * (1 - p_copy)
        mul_attn = (attn * p_copy).view(-1, batch, attn.size(1))
        copy_prob = torch.bmm(mul_attn.transpose(0, 1), src_map.transpose(0, 1)).transpose(0, 1)
        return torch.cat([out_prob, copy_prob.reshape(-1, src_map.size(2))], dim=1)


def collapse_copy_scores(scores, copy_maps, tgt_vocab_size, batch_dim=1):
    for b in range(scores.size(batch_dim)):
        blank = [tgt_vocab_size + i for i, ti in copy_maps[b] if ti != 0]
        fill = [ti for i, ti in copy_maps[b] if ti != 0]
        if blank:
            blank = torch.tensor(blank)
            fill = torch.tensor(fill)
            score = scores[:, b] if batch_dim == 1 else scores[b]
            score.index_add_(1, fill, score.index_select(1, blank))
            score.index_fill_(1, blank, 1e-10)
    return scores


@torch.no_grad()
def gold_log_likelihood(generator, dec_out, copy_attn, src_map, tgt, copy_maps, tgt_vocab_size):
    tgt_len, batch_size, hidden = dec_out.shape
    scores = generator(dec_out.view(-1, hidden), copy_attn.view(-1, copy_attn.size(2)), src_map)
    scores = scores.view(tgt_len, batch_size, scores.size(-1))
    scores = collapse_copy_scores(scores, copy_maps, tgt_vocab_size, batch_dim=1)
    return scores.log().gather(2, tgt.unsqueeze(2)).squeeze(2).sum(0)


def reference_log_likelihood(generator, dec_out, copy_attn, src_map, tgt, copy_maps, tgt_vocab_size):
    total = [0.0] * dec_out.size(1)
    for t in range(dec_out.size(0)):
        for b in range(dec_out.size(1)):
            probs = generator(dec_out[t, b:b + 1], copy_attn[t, b:b + 1], src_map[:, b:b + 1])[0].clone()
            for i, ti in copy_maps[b]:
                if ti != 0:
                    probs[ti] += probs[tgt_vocab_size + i]
                    probs[tgt_vocab_size + i] = 1e-10
            total[b] += probs[tgt[t, b]].log().item()
    return total


if __name__ == "__main__":
    torch.manual_seed(0)
    generator = CopyGenerator(hidden_size=16, tgt_vocab_size=20)
    dec_out = torch.randn(4, 3, 16)
    copy_attn = torch.softmax(torch.randn(4, 3, 5), dim=-1)
    src_ext_ids = torch.tensor([[1, 2, 3, 1, 4], [1, 1, 2, 3, 5], [2, 3, 4, 5, 1]])
    src_map = torch.zeros(5, 3, 6).scatter_(2, src_ext_ids.t().unsqueeze(2), 1.0)
    # (extended id, target-vocab id) per example; 0 = not in the target vocabulary
    copy_maps = [[(1, 7), (2, 0), (3, 11), (4, 4)],
                 [(1, 9), (2, 13), (3, 0), (5, 2)],
                 [(1, 0), (2, 5), (3, 6), (4, 0), (5, 17)]]
    tgt = torch.tensor([[7, 9, 5], [11, 20 + 3, 6], [4, 2, 17], [20 + 2, 13, 20 + 1]])
    got = gold_log_likelihood(generator, dec_out, copy_attn, src_map, tgt, copy_maps, 20)
    with torch.no_grad():
        ref = reference_log_likelihood(generator, dec_out, copy_attn, src_map, tgt, copy_maps, 20)
    assert torch.allclose(got, torch.tensor(ref), atol=1e-4), (got, ref)
    print("ok")
