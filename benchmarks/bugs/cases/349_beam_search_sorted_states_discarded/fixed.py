import torch
import torch.nn as nn

CONFIG = {"vocab_size": 12, "hidden": 8, "beam_size": 3, "max_steps": 4, "bos_id": 0}


class StepDecoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab_size"], cfg["hidden"])
        self.cell = nn.GRUCell(cfg["hidden"], cfg["hidden"])
        self.out = nn.Linear(cfg["hidden"], cfg["vocab_size"])

    def forward(self, tokens, hidden):
        hidden = self.cell(self.embed(tokens), hidden)
        return self.out(hidden).log_softmax(dim=-1), hidden


def sort_states(states, best_hyp_indices):
    return [state.index_select(0, best_hyp_indices) for state in states]


def beam_search(decoder, init_hidden, cfg):
    batch, beam = init_hidden.size(0), cfg["beam_size"]
    states = [init_hidden.repeat_interleave(beam, dim=0)]
    tokens = torch.full((batch * beam,), cfg["bos_id"])
    scores = torch.full((batch, beam), float("-inf"))
    scores[:, 0] = 0.0
    seqs = tokens.unsqueeze(1)
    for _ in range(cfg["max_steps"]):
        log_probs, hidden = decoder(tokens, states[0])
        states = [hidden]
        vocab = log_probs.size(-1)
        cand = (scores.view(-1, 1) + log_probs).view(batch, beam * vocab)
        scores, flat = cand.topk(beam, dim=1)
        offsets = torch.arange(batch).unsqueeze(1) * beam
        best_hyp_indices = (flat // vocab + offsets).view(-1)
        tokens = (flat % vocab).view(-1)
        seqs = torch.cat([seqs.index_select(0, best_hyp_indices), tokens.unsqueeze(1)], dim=1)
        states = sort_states(states, best_hyp_indices)
    return seqs.view(batch, beam, -1), scores


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = StepDecoder(CONFIG)
    init_hidden = torch.randn(2, CONFIG["hidden"])
    seqs, scores = beam_search(decoder, init_hidden, CONFIG)
    with torch.no_grad():
        for b in range(2):
            hyps = [(0.0, [CONFIG["bos_id"]], init_hidden[b : b + 1])]
            for _ in range(CONFIG["max_steps"]):
                cands = []
                for score, seq, h in hyps:
                    logp, h2 = decoder(torch.tensor([seq[-1]]), h)
                    for v in range(CONFIG["vocab_size"]):
                        cands.append((score + logp[0, v].item(), seq + [v], h2))
                hyps = sorted(cands, key=lambda c: -c[0])[: CONFIG["beam_size"]]
            for k, (score, seq, _) in enumerate(hyps):
                assert seqs[b, k].tolist() == seq and abs(scores[b, k].item() - score) < 1e-4
    print("ok")
