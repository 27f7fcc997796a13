from typing import List, Union

import torch


class EosPrioritizerLogitsProcessor:
    """Bark-style early stopping: once any EOS token is likely enough, only EOS tokens may be sampled."""

    def __init__(self, eos_token_id: Union[int, List[int]], min_eos_p: float):
        if isinstance(eos_token_id, int):
            eos_token_id = [eos_token_id]
        self.eos_token_id = eos_token_id
        if min_eos_p is not None and min_eos_p <= 0:
            raise ValueError(f"`min_eos_p` has to be a positive float, but is {min_eos_p}")
        self.min_eos_p = min_eos_p

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        if self.min_eos_p:
            probs = torch.nn.functional.softmax(scores.float(), dim=-1)
            early_stop_scores = torch.ones_like(scores) * -float("inf")
            early_stop_scores[:, self.eos_token_id] = scores[:, self.eos_token_id]
            do_early_stop = probs[:, self.eos_token_id] > self.min_eos_p
            do_early_stop = torch.any(do_early_stop, dim=1, keepdim=True)
            scores = torch.where(do_early_stop, early_stop_scores, scores)
        return scores


def semantic_step(logits_processor, input_ids, scores):
    scores = logits_processor(input_ids, scores)
    return scores.argmax(dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    scores = torch.randn(2, 12)
    scores[1, 10] = 6.0
    input_ids = torch.randint(0, 10, (2, 5))
    processor = EosPrioritizerLogitsProcessor(eos_token_id=[10, 11], min_eos_p=0.2)
    out = processor(input_ids, scores.clone())
    probs = torch.softmax(scores, dim=-1)
    for b in range(scores.shape[0]):
        stop = any(probs[b, e].item() > 0.2 for e in [10, 11])
        for v in range(scores.shape[1]):
            want = scores[b, v].item() if (not stop or v in (10, 11)) else -float("inf")
            assert out[b, v].item() == want, (b, v)
    assert semantic_step(processor, input_ids, scores).tolist() == [scores[0].argmax().item(), 10]
    print("ok")
