import torch


class FastBeamSearch:
    def __init__(self, cfg):
        self.beam_size = cfg["beam_size"]
        self.vocab_size = cfg["vocab_size"]
        self.max_length = cfg["max_length"]
        self.bos = cfg["bos"]

    def _advance(self, log_probs, topk_log_probs, alive_seq, batch_size):
        curr_scores = log_probs + topk_log_probs.view(-1, 1)
        curr_scores = curr_scores.reshape(-1, self.beam_size * self.vocab_size)
        topk_scores, topk_ids = curr_scores.topk(self.beam_size, dim=-1)

        topk_beam_index = topk_ids.div(self.vocab_size, rounding_mode="floor")
        topk_ids = topk_ids.fmod(self.vocab_size)

        beam_offset = torch.arange(0, batch_size * self.beam_size, step=self.beam_size)
        batch_index = topk_beam_index + beam_offset.unsqueeze(1)
        select_indices = batch_index.view(-1)

        alive_seq = torch.cat(
            [alive_seq.index_select(0, select_indices), topk_ids.view(-1, 1)], -1
        )
        return topk_scores, alive_seq

    def search(self, step_fn, batch_size):
        alive_seq = torch.full((batch_size * self.beam_size, 1), self.bos, dtype=torch.long)
        topk_log_probs = torch.tensor([0.0] + [float("-inf")] * (self.beam_size - 1)).repeat(batch_size)
        for _ in range(self.max_length):
            log_probs = step_fn(alive_seq)
            topk_log_probs, alive_seq = self._advance(log_probs, topk_log_probs, alive_seq, batch_size)
        return alive_seq.view(batch_size, self.beam_size, -1), topk_log_probs.view(batch_size, self.beam_size)


def make_step_fn(table):
    def step(alive_seq):
        step_idx = alive_seq.size(1) - 1
        return torch.log_softmax(table[step_idx, alive_seq[:, -1]], dim=-1)
    return step


def reference_search(table, cfg, batch_size):
    lp_table = torch.log_softmax(table, dim=-1).tolist()
    out = []
    for _ in range(batch_size):
        beams = [([cfg["bos"]], 0.0)] + [([cfg["bos"]], float("-inf"))] * (cfg["beam_size"] - 1)
        for _ in range(cfg["max_length"]):
            cands = []
            for b, (seq, score) in enumerate(beams):
                for tok in range(cfg["vocab_size"]):
                    cands.append((score + lp_table[len(seq) - 1][seq[-1]][tok], b * cfg["vocab_size"] + tok, seq + [tok]))
            cands.sort(key=lambda c: (-c[0], c[1]))
            beams = [(c[2], c[0]) for c in cands[: cfg["beam_size"]]]
        out.append(beams)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"beam_size": 3, "vocab_size": 7, "max_length": 4, "bos": 1}
    table = torch.randn(cfg["max_length"], cfg["vocab_size"], cfg["vocab_size"])
    searcher = FastBeamSearch(cfg)
    seqs, scores = searcher.search(make_step_fn(table), batch_size=2)
    ref = reference_search(table, cfg, batch_size=2)
    for b in range(2):
        for k in range(cfg["beam_size"]):
            assert seqs[b, k].tolist() == ref[b][k][0], (b, k)
            assert abs(scores[b, k].item() - ref[b][k][1]) < 1e-4
    print("ok")
