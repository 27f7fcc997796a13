import torch
from torch import nn


class ToyAttnDecoder(nn.Module):
    """GRU decoder whose attention window advances by a token-dependent stride.

    Arguments
    ---------
    vocab_size : int
        Output vocabulary size.
    hidden_size : int
        GRU state size.
    enc_dim : int
        Encoder feature size.
    """

    def __init__(self, vocab_size=6, hidden_size=16, enc_dim=8):
        super().__init__()
        self.hidden_size = hidden_size
        self.emb = nn.Embedding(vocab_size, hidden_size)
        self.cell = nn.GRUCell(hidden_size, hidden_size)
        self.out = nn.Linear(hidden_size + enc_dim, vocab_size)
        self.register_buffer("stride", torch.tensor([0.0, 1.0, 1.0, 2.0, 3.0, 5.0]))

    def step(self, tokens, memory, enc_states):
        """One decoding step.

        Arguments
        ---------
        tokens : torch.Tensor
            (N,) previous tokens.
        memory : torch.Tensor
            (N, hidden_size + 1) GRU state followed by the attention position.
        enc_states : torch.Tensor
            (N, T, enc_dim) encoder output.

        Returns
        -------
        log_probs : torch.Tensor
            (N, vocab_size)
        memory : torch.Tensor
            (N, hidden_size + 1)
        attn : torch.Tensor
            (N, T) attention weights.
        """
        h = self.cell(self.emb(tokens), memory[:, : self.hidden_size])
        pos = memory[:, self.hidden_size] + self.stride[tokens]
        frames = torch.arange(enc_states.size(1), dtype=pos.dtype, device=pos.device)
        attn = torch.softmax(-((frames.unsqueeze(0) - pos.unsqueeze(1)) ** 2), dim=1)
        context = torch.bmm(attn.unsqueeze(1), enc_states).squeeze(1)
        log_probs = torch.log_softmax(self.out(torch.cat([h, context], dim=1)), dim=1)
        return log_probs, torch.cat([h, pos.unsqueeze(1)], dim=1), attn


class S2SBeamSearcher(nn.Module):
    """Batched beam search with the max-attention-shift constraint.

    Arguments
    ---------
    decoder : ToyAttnDecoder
        Provides ``step(tokens, memory, enc_states)``.
    bos_index : int
        Start token.
    beam_size : int
        Number of hypotheses kept per utterance.
    max_attn_shift : int
        A hypothesis whose attention peak moves by more than this many frames
        between two steps is pruned.
    max_steps : int
        Number of decoding steps.
    """

    def __init__(self, decoder, bos_index=0, beam_size=3, max_attn_shift=2, max_steps=6, minus_inf=-1e20):
        super().__init__()
        self.decoder = decoder
        self.bos_index = bos_index
        self.beam_size = beam_size
        self.max_attn_shift = max_attn_shift
        self.max_steps = max_steps
        self.minus_inf = minus_inf

    @torch.no_grad()
    def forward(self, enc_states):
        """
        Arguments
        ---------
        enc_states : torch.Tensor
            (batch, T, enc_dim)

        Returns
        -------
        hyps : torch.Tensor
            (batch, beam_size, max_steps) token ids.
        scores : torch.Tensor
            (batch, beam_size) accumulated log-probabilities.
        """
        batch_size, device = enc_states.size(0), enc_states.device
        k = self.beam_size
        enc_states = enc_states.repeat_interleave(k, dim=0)
        memory = torch.zeros(batch_size * k, self.decoder.hidden_size + 1, device=device)
        beam_offset = torch.arange(batch_size, device=device) * k
        sequence_scores = torch.full((batch_size * k,), float("-inf"), device=device)
        sequence_scores.index_fill_(0, beam_offset, 0.0)
        inp_tokens = torch.full((batch_size * k,), self.bos_index, dtype=torch.long, device=device)
        alived_seq = torch.empty(batch_size * k, 0, dtype=torch.long, device=device)
        prev_attn_peak = torch.zeros(batch_size * k, device=device)

        for _ in range(self.max_steps):
            log_probs, memory, attn = self.decoder.step(inp_tokens, memory, enc_states)
            vocab_size = log_probs.size(1)

            _, attn_peak = torch.max(attn, dim=1)
            lt_cond = attn_peak <= prev_attn_peak + self.max_attn_shift
            mt_cond = attn_peak > prev_attn_peak - self.max_attn_shift
            cond = (lt_cond & mt_cond).unsqueeze(1).expand(-1, vocab_size)
            log_probs = torch.where(cond, log_probs, torch.full_like(log_probs, self.minus_inf))
            prev_attn_peak = attn_peak

            scores = (sequence_scores.unsqueeze(1) + log_probs).view(batch_size, -1)
            sequence_scores, candidates = scores.topk(k, dim=-1)
            sequence_scores = sequence_scores.view(batch_size * k)
            inp_tokens = (candidates % vocab_size).view(batch_size * k)
            predecessors = (candidates // vocab_size + beam_offset.unsqueeze(1)).view(batch_size * k)

            # permute the states to follow the surviving hypotheses
            memory = torch.index_select(memory, dim=0, index=predecessors)
            prev_attn_peak = torch.index_select(prev_attn_peak, dim=0, index=predecessors)
            alived_seq = torch.index_select(alived_seq, dim=0, index=predecessors)
            alived_seq = torch.cat([alived_seq, inp_tokens.unsqueeze(1)], dim=1)

        return alived_seq.view(batch_size, k, -1), sequence_scores.view(batch_size, k)


def reference_beam_search(decoder, enc_states, beam_size, max_attn_shift, max_steps, minus_inf=-1e20):
    """Plain loop over utterances and hypotheses; each hypothesis carries its own attention peak."""
    results = []
    for b in range(enc_states.size(0)):
        enc = enc_states[b : b + 1]
        beams = [(0.0, [], torch.zeros(1, decoder.hidden_size + 1), 0, 0)]  # score, seq, memory, last token, peak
        for _ in range(max_steps):
            cands = []
            for score, seq, mem, tok, peak in beams:
                lp, new_mem, attn = decoder.step(torch.tensor([tok]), mem, enc)
                new_peak = int(attn[0].argmax())
                ok = peak - max_attn_shift < new_peak <= peak + max_attn_shift
                for v in range(lp.size(1)):
                    cands.append((score + (float(lp[0, v]) if ok else minus_inf), seq + [v], new_mem, v, new_peak))
            cands.sort(key=lambda c: -c[0])
            beams = cands[:beam_size]
        results.append((beams[0][1], beams[0][0]))
    return results


if __name__ == "__main__":
    torch.manual_seed(3)
    decoder = ToyAttnDecoder()
    searcher = S2SBeamSearcher(decoder, beam_size=3, max_attn_shift=2, max_steps=6)
    enc_states = torch.randn(4, 40, 8)
    hyps, scores = searcher(enc_states)
    with torch.no_grad():
        ref = reference_beam_search(decoder, enc_states, 3, 2, 6)
    for b in range(enc_states.size(0)):
        best = int(scores[b].argmax())
        assert hyps[b, best].tolist() == ref[b][0], (b, hyps[b, best].tolist(), ref[b][0])
        assert abs(scores[b, best].item() - ref[b][1]) < 1e-4
    print("ok")
