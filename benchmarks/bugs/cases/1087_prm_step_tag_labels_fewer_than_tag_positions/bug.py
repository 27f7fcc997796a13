import torch
from jaxtyping import Int
from torch.utils.data import Dataset

STEP_TAG = "ки"
IGNORE = -100


class WordTokenizer:
    def __init__(self):
        self.vocab = {"<pad>": 0, STEP_TAG: 1, "+": 2, "-": 3}

    def __call__(self, text: str) -> list[int]:
        return [self.vocab.setdefault(w, len(self.vocab)) for w in text.split()]


class ProcessRewardDataset(Dataset):
    """Math-Shepherd style samples: every reasoning step ends with the step tag."""

    def __init__(self, rows, tokenizer):
        self.rows = rows
        self.tok = tokenizer
        self.placeholder_token_id = tokenizer.vocab[STEP_TAG]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i) -> tuple[Int[torch.Tensor, "seq"], Int[torch.Tensor, "seq"]]:
        row = self.rows[i]
        input_ids = torch.tensor(self.tok(row["prompt"] + " " + row["response"]))
        label_tokens = [self.tok.vocab[v] for v in row["step_labels"]]
        labels = torch.full_like(input_ids, IGNORE)
        labels[input_ids == self.placeholder_token_id] = torch.tensor(label_tokens)
        return input_ids, labels


if __name__ == "__main__":
    rows = [
        {
            "prompt": f"Each step below ends with {STEP_TAG} . Compute 3 * 4 + 5",
            "response": f"3 * 4 = 12 {STEP_TAG} 12 + 5 = 17 {STEP_TAG} answer 17 {STEP_TAG}",
            "step_labels": ["+", "+", "+"],
        }
    ]
    ds = ProcessRewardDataset(rows, WordTokenizer())
    ids, labels = ds[0]
    print(ids.tolist())
    print(labels.tolist())
