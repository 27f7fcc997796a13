import torch


class BigramDecoder(torch.nn.Module):
    """Toy autoregressive decoder: the next-token distribution depends on the last token.

    Arguments
    ---------
    vocab_size : int
        Number of output tokens, including bos and eos.
    """

    def __init__(self, vocab_size):
        super().__init__()
        self.table = torch.nn.Parameter(torch.randn(vocab_size, vocab_size) * 2.0)

    def forward(self, inp_tokens, context):
        """
        Arguments
        ---------
        inp_tokens : torch.Tensor
            The last token of every hypothesis, shape (batch_size * beam_size,).
        context : torch.Tensor
            Per-hypothesis bias from the encoder, shape (batch_size * beam_size, vocab_size).

        Returns
        -------
        log_probs : torch.Tensor
            Shape (batch_size * beam_size, vocab_size).
        """
        return torch.log_softmax(self.table[inp_tokens] + context, dim=-1)


class S2SBeamSearcher:
    """Batched beam search that stores the hypotheses reaching eos.

    Arguments
    ---------
    decoder : torch.nn.Module
        Maps the last tokens (batch_size * beam_size,) and the context to log-probs
        (batch_size * beam_size, vocab).
    bos_index, eos_index : int
        Start and end tokens.
    beam_size : int
        Number of hypotheses kept per utterance.
    max_decode_steps : int
        Maximum number of decoding steps.
    """

    def __init__(self, decoder, bos_index, eos_index, beam_size, max_decode_steps):
        self.decoder = decoder
        self.bos_index = bos_index
        self.eos_index = eos_index
        self.beam_size = beam_size
        self.max_decode_steps = max_decode_steps

    def _update_hyps_and_scores_if_eos_token(self, inp_tokens, alived_seq, eos_hyps, scores):
        """Save the hypotheses that just produced eos.

        Arguments
        ---------
        inp_tokens : torch.Tensor
            Tokens chosen at this step, shape (batch_size * beam_size,).
        alived_seq : torch.Tensor
            Token history, shape (batch_size * beam_size, step + 1).
        eos_hyps : list
            One list of (tokens, score) per utterance.
        scores : torch.Tensor
            Sequence scores, shape (batch_size * beam_size,).

        Returns
        -------
        is_eos : torch.Tensor
            Boolean mask of shape (batch_size * beam_size,).
        """
        is_eos = inp_tokens.eq(self.eos_index)
        for index in is_eos.nonzero().view(-1).tolist():
            batch_id = index // self.beam_size
            final_scores = scores[index]
            eos_hyps[batch_id].append((alived_seq[index].clone(), final_scores))
        return is_eos

    @torch.no_grad()
    def __call__(self, enc_context):
        """Decode a batch; ``enc_context`` has shape (batch_size, vocab_size).

        Returns the best (tokens, score) of every utterance.
        """
        batch_size = enc_context.size(0)
        n_bh = batch_size * self.beam_size
        context = enc_context.repeat_interleave(self.beam_size, dim=0)
        beam_offset = torch.arange(batch_size) * self.beam_size
        sequence_scores = torch.full((n_bh,), float("-inf")).index_fill_(0, beam_offset, 0.0)
        inp_tokens = torch.full((n_bh,), self.bos_index, dtype=torch.long)
        alived_seq = torch.empty(n_bh, 0, dtype=torch.long)
        eos_hyps = [[] for _ in range(batch_size)]

        for _ in range(self.max_decode_steps):
            log_probs = self.decoder(inp_tokens, context)
            vocab_size = log_probs.size(-1)
            scores = (sequence_scores.unsqueeze(1) + log_probs).view(batch_size, -1)
            scores, candidates = scores.topk(self.beam_size, dim=-1)
            predecessors = (torch.div(candidates, vocab_size, rounding_mode="floor")
                            + beam_offset.unsqueeze(1)).view(n_bh)
            inp_tokens = (candidates % vocab_size).view(n_bh)
            sequence_scores = scores.view(n_bh)
            alived_seq = torch.cat(
                [alived_seq.index_select(0, predecessors), inp_tokens.unsqueeze(1)], dim=-1
            )
            is_eos = self._update_hyps_and_scores_if_eos_token(
                inp_tokens, alived_seq, eos_hyps, sequence_scores
            )
            # block the paths that have reached eos
            sequence_scores.masked_fill_(is_eos, float("-inf"))
        return [max(hyps, key=lambda h: float(h[1])) if hyps else None for hyps in eos_hyps]


def sequence_logprob(table, context, bos, tokens):
    logp = torch.log_softmax(table + context, dim=-1)
    total, prev = 0.0, bos
    for tok in tokens:
        total += float(logp[prev, tok])
        prev = tok
    return total


if __name__ == "__main__":
    torch.manual_seed(8)
    decoder = BigramDecoder(vocab_size=8)
    with torch.no_grad():
        decoder.table[:, 1] += 1.0   # make eos (id 1) reachable
    searcher = S2SBeamSearcher(decoder, bos_index=0, eos_index=1, beam_size=3, max_decode_steps=6)
    enc_context = torch.randn(2, 8)
    best = searcher(enc_context)
    for b, (tokens, score) in enumerate(best):
        ref = sequence_logprob(decoder.table.detach(), enc_context[b], 0, tokens.tolist())
        print("best:", tokens.tolist(), "stored score:", float(score), "log-prob of the tokens:", round(ref, 4))
