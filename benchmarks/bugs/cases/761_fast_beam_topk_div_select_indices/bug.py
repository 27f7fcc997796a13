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

        topk_beam_index = topk_ids.div(self.vocab_size)
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


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"beam_size": 3, "vocab_size": 7, "max_length": 4, "bos": 1}
    table = torch.randn(cfg["max_length"], cfg["vocab_size"], cfg["vocab_size"])
    searcher = FastBeamSearch(cfg)
    seqs, scores = searcher.search(make_step_fn(table), batch_size=2)
    print(seqs)
    print(scores)
