import torch


class Seq2SeqBeamDecoder:
    """Beam search over a toy seq2seq step function.

    Args:
        step_fn: callable mapping (prev_tokens [B*K], state [B*K, H]) to
            (log_probs [B*K, V], new_state [B*K, H]).
        beam_size: K, number of hypotheses kept per example.
    """

    def __init__(self, step_fn, beam_size):
        self.step_fn = step_fn
        self.K = beam_size

    def _select(self, scores, batch_size, vocab_size):
        """Pick the K best continuations per example.

        Args:
            scores: cumulative scores, shape [B, K * V].
        Returns:
            top_scores [B, K], back_ptrs [B, K] (parent beam), word_ids [B, K].
        """
        top_scores, k_ids = scores.topk(self.K, dim=1)
        back_ptrs = torch.div(k_ids, vocab_size)
        word_ids = k_ids % vocab_size
        return top_scores, back_ptrs, word_ids

    def decode(self, init_state, bos_id, steps):
        """Args:
            init_state: encoder summary, shape [B, H].
        Returns:
            token history [B, K, steps].
        """
        B, H = init_state.shape
        state = init_state.repeat_interleave(self.K, dim=0)
        tokens = torch.full((B * self.K,), bos_id, dtype=torch.long)
        beam_scores = torch.zeros(B, self.K)
        beam_scores[:, 1:] = -1e9
        history = torch.zeros(B, self.K, 0, dtype=torch.long)
        for _ in range(steps):
            log_probs, state = self.step_fn(tokens, state)
            V = log_probs.size(-1)
            scores = (beam_scores.view(-1, 1) + log_probs).view(B, self.K * V)
            beam_scores, back_ptrs, word_ids = self._select(scores, B, V)
            history = history.gather(1, back_ptrs.unsqueeze(-1).expand(-1, -1, history.size(2)))
            history = torch.cat([history, word_ids.unsqueeze(-1)], dim=-1)
            state = state.view(B, self.K, H).gather(1, back_ptrs.unsqueeze(-1).expand(-1, -1, H)).view(B * self.K, H)
            tokens = word_ids.view(-1)
        return history


if __name__ == "__main__":
    torch.manual_seed(0)
    V, H = 11, 6
    emb = torch.randn(V, H)
    proj = torch.randn(H, V)

    def step(prev, state):
        new_state = torch.tanh(state + emb[prev])
        return torch.log_softmax(new_state @ proj, dim=-1), new_state

    decoder = Seq2SeqBeamDecoder(step, beam_size=3)
    out = decoder.decode(torch.randn(2, H), bos_id=0, steps=4)
    print(out)
