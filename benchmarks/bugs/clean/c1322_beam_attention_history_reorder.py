import torch


class BeamSearch:
    """Beam search bookkeeping with a batch-first attention history.

    Args:
        batch_size (int): number of source sentences.
        beam_size (int): beams per sentence.

    ``alive_seq`` is (batch_size * beam_size, step) and ``alive_attn`` is
    (batch_size * beam_size, step, src_len); both are reordered along dim 0.
    """

    def __init__(self, batch_size, beam_size, bos=1):
        self.batch_size, self.beam_size = batch_size, beam_size
        self.alive_seq = torch.full((batch_size * beam_size, 1), bos)
        self.topk_log_probs = torch.zeros(batch_size, beam_size)
        self.topk_log_probs[:, 1:] = -1e20
        self.alive_attn = None
        self._beam_offset = torch.arange(0, batch_size * beam_size, beam_size)
        self.history = []

    def advance(self, log_probs, attn):
        """log_probs: (B*beam, vocab); attn: (B*beam, 1, src_len)."""
        vocab = log_probs.size(-1)
        scores = log_probs.view(self.batch_size, self.beam_size, vocab) + self.topk_log_probs.unsqueeze(-1)
        self.topk_log_probs, topk_ids = scores.view(self.batch_size, -1).topk(self.beam_size, dim=-1)
        beam_origin = torch.div(topk_ids, vocab, rounding_mode="floor")
        select_indices = (beam_origin + self._beam_offset.unsqueeze(1)).view(-1)
        self.history.append(select_indices)
        next_tokens = (topk_ids % vocab).view(-1, 1)
        self.alive_seq = torch.cat([self.alive_seq.index_select(0, select_indices), next_tokens], dim=-1)
        current_attn = attn.index_select(0, select_indices)
        if self.alive_attn is None:
            self.alive_attn = current_attn
        else:
            self.alive_attn = torch.cat([self.alive_attn.index_select(0, select_indices), current_attn], dim=1)


if __name__ == "__main__":
    torch.manual_seed(1)
    B, beam, V, S, steps = 2, 3, 13, 5, 4
    search = BeamSearch(B, beam)
    attns, tokens = [], []
    for _ in range(steps):
        lp = torch.randn(B * beam, V).log_softmax(-1)
        at = torch.randn(B * beam, 1, S).softmax(-1)
        attns.append(at)
        search.advance(lp, at)
    for row in range(B * beam):
        r, ref = row, []
        for t in range(steps - 1, -1, -1):
            r = int(search.history[t][r])
            ref.append(attns[t][r, 0])
        assert torch.allclose(search.alive_attn[row], torch.stack(ref[::-1]))
    assert search.alive_seq.shape == (B * beam, steps + 1)
    print("ok")
