from types import SimpleNamespace

import torch


class ToyWhisperDecoder:
    """Stands in for the Whisper decoder: next-token log-probs and per-layer cross-attentions
    over the encoder frames, both depending on the step and the beam's last token."""

    def __init__(self, vocab_size=8, num_frames=12, num_layers=2, num_heads=3, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.vocab_size, self.num_frames = vocab_size, num_frames
        self.num_layers, self.num_heads = num_layers, num_heads
        self.logit_table = torch.randn(16, vocab_size, vocab_size, generator=g) * 2.0
        self.attn_table = torch.randn(num_layers, num_heads, vocab_size, num_frames, generator=g) * 3.0

    def step(self, step, last_tokens):
        # last_tokens: (batch * num_beams,)
        log_probs = self.logit_table[step, last_tokens].log_softmax(-1)      # (batch * num_beams, vocab)
        cross_attentions = tuple(
            self.attn_table[layer][:, last_tokens].transpose(0, 1).softmax(-1).unsqueeze(2)
            for layer in range(self.num_layers)
        )                                                                      # each (batch * num_beams, heads, 1, frames)
        return log_probs, cross_attentions


def beam_search(decoder, start_tokens, num_beams, max_new_tokens):
    batch_size = start_tokens.shape[0]
    last = start_tokens.repeat_interleave(num_beams)                          # (batch * num_beams,)
    beam_scores = torch.zeros(batch_size, num_beams)
    beam_scores[:, 1:] = -1e9
    tokens = [[[] for _ in range(num_beams)] for _ in range(batch_size)]
    origins = [[[] for _ in range(num_beams)] for _ in range(batch_size)]
    all_cross_attentions = []
    for step in range(max_new_tokens):
        log_probs, cross_attentions = decoder.step(step, last)
        all_cross_attentions.append(cross_attentions)
        cand = beam_scores.unsqueeze(-1) + log_probs.view(batch_size, num_beams, -1)
        top_scores, top_ids = cand.view(batch_size, -1).topk(num_beams, dim=-1)
        src_beam, next_tok = top_ids // decoder.vocab_size, top_ids % decoder.vocab_size
        new_tokens = [[None] * num_beams for _ in range(batch_size)]
        new_origins = [[None] * num_beams for _ in range(batch_size)]
        for b in range(batch_size):
            for k in range(num_beams):
                src = int(src_beam[b, k])
                new_tokens[b][k] = tokens[b][src] + [int(next_tok[b, k])]
                new_origins[b][k] = origins[b][src] + [b * num_beams + src]
        tokens, origins, beam_scores = new_tokens, new_origins, top_scores
        last = next_tok.flatten()
    best = beam_scores.argmax(-1)
    return SimpleNamespace(
        sequences=torch.tensor([tokens[b][int(best[b])] for b in range(batch_size)]),
        beam_indices=torch.tensor([origins[b][int(best[b])] for b in range(batch_size)]),
        cross_attentions=tuple(all_cross_attentions),
    )


def extract_token_timestamps(generate_outputs, alignment_heads, num_layers, time_precision=0.02):
    # Create a list with `num_layers` elements, each a tensor of shape
    # (batch size, attention heads, output length, input length).
    cross_attentions = []
    for i in range(num_layers):
        cross_attentions.append(torch.cat([x[i] for x in generate_outputs.cross_attentions], dim=2))

    # Select specific cross-attention layers and heads. This is a tensor
    # of shape (batch size, num selected, output length, input length).
    weights = torch.stack([cross_attentions[l][:, h] for l, h in alignment_heads])
    weights = weights.permute([1, 0, 2, 3])

    # Normalize over the output tokens, then average the selected heads.
    std, mean = torch.std_mean(weights, dim=-2, keepdim=True, unbiased=False)
    weights = (weights - mean) / std
    matrix = weights.mean(dim=1)                                              # (batch size, output length, input length)

    timestamps = torch.zeros_like(generate_outputs.sequences, dtype=torch.float32)
    for batch_idx in range(timestamps.shape[0]):
        jump_frames = matrix[batch_idx].argmax(-1)                            # (output length,)
        jump_frames = torch.cummax(jump_frames, dim=0).values                 # keep the alignment monotonic
        timestamps[batch_idx] = jump_frames.float() * time_precision
    return timestamps


if __name__ == "__main__":
    decoder = ToyWhisperDecoder()
    outputs = beam_search(decoder, start_tokens=torch.tensor([1, 2]), num_beams=3, max_new_tokens=5)
    alignment_heads = [(0, 1), (1, 0), (1, 2)]
    timestamps = extract_token_timestamps(outputs, alignment_heads, decoder.num_layers)
    print("sequences:    ", outputs.sequences.tolist())
    print("beam_indices: ", outputs.beam_indices.tolist())
    print("timestamps (s):", [[round(t, 2) for t in row] for row in timestamps.tolist()])
