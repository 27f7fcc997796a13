import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = dict(vocab_size=40, hidden=12, num_beams=3, max_new_tokens=5, bos=0, logprob_threshold=-2.9)


class TinyTextDecoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab_size"], cfg["hidden"])
        self.audio_proj = nn.Linear(cfg["hidden"], cfg["hidden"])
        self.head = nn.Linear(cfg["hidden"], cfg["vocab_size"])

    def forward(self, last_tokens, audio_state):
        return self.head(torch.tanh(self.embed(last_tokens) + self.audio_proj(audio_state)))


@torch.no_grad()
def generate_beam(decoder, audio_state, cfg):
    n_beams, vocab = cfg["num_beams"], cfg["vocab_size"]
    batch = audio_state.size(0)
    audio = audio_state.repeat_interleave(n_beams, dim=0)
    seqs = torch.full((batch * n_beams, 1), cfg["bos"])
    running = torch.full((batch, n_beams), -1e9)
    running[:, 0] = 0.0
    running = running.flatten()
    history, scores = [], []
    for _ in range(cfg["max_new_tokens"]):
        logits = decoder(seqs[:, -1], audio)
        scores.append(logits)
        total = (running[:, None] + logits.log_softmax(-1)).view(batch, -1)
        running, pick = total.topk(n_beams, dim=-1)
        src = (pick // vocab + n_beams * torch.arange(batch)[:, None]).flatten()
        seqs = torch.cat([seqs[src], (pick % vocab).flatten()[:, None]], dim=1)
        history.append(src)
        running = running.flatten()
    best = n_beams * torch.arange(batch)
    beam_indices, cur = [], best
    for src in reversed(history):
        cur = src[cur]
        beam_indices.append(cur)
    return dict(sequences=seqs[best, 1:], scores=scores, beam_indices=torch.stack(beam_indices[::-1], 1))


def split_by_batch_index(values, key, batch_idx, beam_indices=None):
    if key == "scores":
        return [v[batch_idx] for v in values]
    return values[batch_idx]


def retrieve_avg_logprob(scores, tokens, temperature):
    rescale = temperature if temperature > 0 else 1.0
    logprobs = F.log_softmax(torch.stack(scores) * rescale, dim=-1)
    picked = logprobs.gather(-1, tokens[:, None]).squeeze(-1)
    return picked.sum() / (tokens.numel() + 1)


def postprocess_segments(outputs, batch, cfg, temperature=0.0):
    segments = []
    for b in range(batch):
        tokens = split_by_batch_index(outputs["sequences"], "sequences", b)
        seg_scores = split_by_batch_index(outputs["scores"], "scores", b, outputs["beam_indices"])
        avg = retrieve_avg_logprob(seg_scores, tokens, temperature)
        segments.append(dict(tokens=tokens.tolist(), avg_logprob=avg.item(),
                             needs_fallback=avg.item() < cfg["logprob_threshold"]))
    return segments


if __name__ == "__main__":
    torch.manual_seed(1)
    decoder = TinyTextDecoder(CONFIG)
    audio_state = torch.randn(3, CONFIG["hidden"])
    out = generate_beam(decoder, audio_state, CONFIG)
    for b, seg in enumerate(postprocess_segments(out, 3, CONFIG)):
        rows = out["beam_indices"][b]
        ref = sum(out["scores"][t][rows[t]].log_softmax(-1)[seg["tokens"][t]].item() for t in range(len(rows)))
        ref /= len(rows) + 1
        print(f"utt {b}: avg_logprob {seg['avg_logprob']:.3f}  expected {ref:.3f}  fallback {seg['needs_fallback']}")
