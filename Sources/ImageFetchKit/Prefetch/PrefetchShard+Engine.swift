extension PrefetchShard {
    /// Why `--shard auto` found no shard in the environment; `description` is a full sentence.
    public struct EngineError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The shard a job engine gave this worker through its variables, for `--shard auto`:
    ///
    /// - Slurm job arrays: `SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN` (divided by
    ///   `SLURM_ARRAY_TASK_STEP` for `--array=0-30:2`) of `SLURM_ARRAY_TASK_COUNT`, so `--array=1-16`
    ///   needs no arithmetic in the job script.
    /// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` of `IMGFETCH_SHARD_COUNT` (Kubernetes
    ///   does not pass the completion count to the pod; set it beside `completions`).
    ///
    /// Slurm's are read first: a Kubernetes pod never has them.
    public static func fromEngine(environment: (String) -> String?) throws(EngineError) -> PrefetchShard {
        func number(_ name: String) throws(EngineError) -> Int? {
            guard let text = environment(name), !text.isEmpty else { return nil }
            guard let value = Int(text) else { throw EngineError(description: "--shard auto: \(name)='\(text)' is not a whole number.") }
            return value
        }
        if let id = try number("SLURM_ARRAY_TASK_ID") {
            guard let count = try number("SLURM_ARRAY_TASK_COUNT") else {
                throw EngineError(description: "--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not.")
            }
            let first = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            let step = max(1, try number("SLURM_ARRAY_TASK_STEP") ?? 1)
            guard (id - first) % step == 0, let shard = PrefetchShard(index: (id - first) / step, count: count) else {
                throw EngineError(description:
                    "--shard auto: Slurm task \(id) (array from \(first), step \(step), \(count) tasks) is not a shard of \(count).")
            }
            return shard
        }
        if let index = try number("JOB_COMPLETION_INDEX") {
            guard let count = try number("IMGFETCH_SHARD_COUNT") else {
                throw EngineError(description:
                    "--shard auto: JOB_COMPLETION_INDEX is set but IMGFETCH_SHARD_COUNT is not (set it to the Job's completions).")
            }
            guard let shard = PrefetchShard(index: index, count: count) else {
                throw EngineError(description: "--shard auto: JOB_COMPLETION_INDEX \(index) is not a shard of IMGFETCH_SHARD_COUNT \(count).")
            }
            return shard
        }
        throw EngineError(description:
            "--shard auto found no job engine: set SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (Slurm) or JOB_COMPLETION_INDEX and IMGFETCH_SHARD_COUNT (Kubernetes), or give --shard I/N.")
    }
}
