# Ruby job class for the cross-language test: records who ran it.
module Cross
  class Echo
    def self.perform(job)
      job.data["ran_in"] = "ruby"
    end
  end
end
