import torch
from torch import Tensor
from jaxtyping import Float, Int


def beam_step(
    out: Int[Tensor, "bp n"],
    scores: Float[Tensor, " bp"],
    log_probs: Float[Tensor, "bp v"],
    batch: int,
    beams: int,
) -> tuple[Int[Tensor, "bk n1"], Float[Tensor, " bk"]]:
    samples: Int[Tensor, "bp k"] = log_probs.topk(beams, dim=-1).indices
    next_scores = scores[:, None] + log_probs.gather(-1, samples)
    out = out.repeat_interleave(beams, dim=0)
    out = torch.cat((out, samples.reshape(-1, 1)), dim=-1)
    cand_scores: Float[Tensor, "b c"] = next_scores.reshape(batch, -1)
    curr_num_beams = cand_scores.shape[-1]
    if curr_num_beams > beams:
        cand_scores, sort_indices = cand_scores.sort(dim=-1, descending=True)
        cand_scores = cand_scores[:, :beams]
        top_beams_indices = sort_indices[:, :beams]
        batch_arange = torch.arange(batch)
        top_beams_indices = beams * batch_arange[:, None] + top_beams_indices
        out = out[top_beams_indices.reshape(-1)]
    return out, cand_scores.reshape(-1)


def beam_search(transition: Float[Tensor, "v v"], prompts: Int[Tensor, "b n"], steps: int, beams: int):
    batch = prompts.shape[0]
    out, scores = prompts, torch.zeros(batch)
    for _ in range(steps):
        log_probs = transition[out[:, -1]].log_softmax(dim=-1)
        out, scores = beam_step(out, scores, log_probs, batch, beams)
    return out.reshape(batch, beams, -1), scores.reshape(batch, beams)


def sequence_score(transition, seq, prompt_len):
    lp = transition.log_softmax(dim=-1)
    return sum(lp[seq[t - 1], seq[t]].item() for t in range(prompt_len, len(seq)))


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = 12
    transition = torch.randn(vocab, vocab) * 3
    prompts = torch.tensor([[1, 2], [5, 6], [9, 10]])
    out, scores = beam_search(transition, prompts, steps=3, beams=4)
    for b in range(prompts.shape[0]):
        firsts = [out[b, k, :2].tolist() for k in range(4)]
        rescored = [round(sequence_score(transition, out[b, k].tolist(), 2), 3) for k in range(4)]
        print(f"batch {b}: prompt {prompts[b].tolist()} beams start with {firsts}")
        print(f"  reported scores {[round(s, 3) for s in scores[b].tolist()]} rescored {rescored}")
