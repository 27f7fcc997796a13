import torch


class BeamSearch:
    def __init__(self, batch_size, beam_size, bos=1):
        self.batch_size, self.beam_size = batch_size, beam_size
        self.alive_seq = torch.full((batch_size * beam_size, 1), bos)  # (B*beam, step)
        self.topk_log_probs = torch.zeros(batch_size, beam_size)
        self.topk_log_probs[:, 1:] = -1e20
        self.alive_attn = None  # (B*beam, step, src_len)
        self._beam_offset = torch.arange(0, batch_size * beam_size, beam_size)  # (B,)
        self.history = []

    def advance(self, log_probs, attn):
        # log_probs: (B*beam, vocab)   attn: (B*beam, 1, src_len), batch-first like the decoder
        vocab = log_probs.size(-1)
        scores = (log_probs.view(self.batch_size, self.beam_size, vocab) + self.topk_log_probs.unsqueeze(-1))
        self.topk_log_probs, topk_ids = scores.view(self.batch_size, -1).topk(self.beam_size, dim=-1)
        self.topk_ids = topk_ids % vocab  # (B, beam)
        beam_origin = topk_ids // vocab  # (B, beam)
        self.select_indices = (beam_origin + self._beam_offset.unsqueeze(1)).view(-1)  # (B*beam,)
        self.history.append(self.select_indices)
        self.alive_seq = torch.cat([self.alive_seq.index_select(0, self.select_indices), self.topk_ids.view(-1, 1)], -1)
        current_attn = attn.index_select(1, self.select_indices)
        if self.alive_attn is None:
            self.alive_attn = current_attn
        else:
            self.alive_attn = self.alive_attn.index_select(1, self.select_indices)
            self.alive_attn = torch.cat([self.alive_attn, current_attn], 1)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, beam, V, S, steps = 2, 3, 11, 7, 4
    search = BeamSearch(B, beam)
    all_lp, all_attn = [], []
    for _ in range(steps):
        lp = torch.randn(B * beam, V).log_softmax(-1)
        at = torch.randn(B * beam, 1, S).softmax(-1)
        all_lp.append(lp)
        all_attn.append(at)
        search.advance(lp, at)
    print("alive_attn:", tuple(search.alive_attn.shape))
