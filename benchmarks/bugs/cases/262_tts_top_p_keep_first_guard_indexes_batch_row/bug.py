import torch
import torch.nn.functional as F


def logits_to_probs(logits, previous_tokens=None, temperature=1.0, top_p=1.0, repetition_penalty=1.0):
    if previous_tokens is not None:
        previous_tokens = previous_tokens.long()
        score = torch.gather(logits, dim=-1, index=previous_tokens)
        score = torch.where(score < 0, score * repetition_penalty, score / repetition_penalty)
        logits = logits.scatter(dim=-1, index=previous_tokens, src=score)

    sorted_logits, sorted_indices = torch.sort(logits, descending=True)
    cum_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
    sorted_indices_to_remove = cum_probs > top_p
    sorted_indices_to_remove[0] = False  # keep at least one option
    indices_to_remove = sorted_indices_to_remove.scatter(dim=-1, index=sorted_indices, src=sorted_indices_to_remove)
    logits = logits.masked_fill(indices_to_remove, -float("Inf"))
    logits = logits / max(temperature, 1e-5)
    return F.softmax(logits, dim=-1)


def decode_one_token(model_logits, previous_tokens, sampling):
    probs = logits_to_probs(model_logits, previous_tokens, **sampling)
    return probs, torch.argmax(probs, dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    sampling = {"temperature": 0.7, "top_p": 0.8, "repetition_penalty": 1.2}
    codebook_logits = torch.randn(3, 10)
    codebook_logits[1, 4] = 9.0
    previous_tokens = torch.tensor([[1, 2], [3, 3], [0, 5]])
    probs, next_tokens = decode_one_token(codebook_logits, previous_tokens, sampling)
    print("tokens kept per sequence:", (probs > 0).sum(dim=-1).tolist())
    print("probabilities of sequence 1:", [round(p, 3) for p in probs[1].tolist()])
