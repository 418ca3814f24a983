# frozen_string_literal: true

module Qless
  # Tree classes (jobtrees.md §9.1): job classes (they have .perform) that
  # declare ports with .inports / .outports (a Hash of port => options,
  # port names, or JSON text) or have .startup(job) / .shutdown(job) hooks:
  #
  #   class Counter
  #     def self.inports = { "in" => {}, "limit" => { "default" => 10 } }
  #     def self.outports = %w[out]
  #     def self.startup(job) = job.store["count"] = 0
  #     def self.perform(job) = ...
  #   end
  module TreeClass
    HOOKS = %i[inports outports startup shutdown].freeze

    module_function

    def tree_class?(mod) = mod.respond_to?(:perform) && HOOKS.any? { |hook| mod.respond_to?(hook) }

    # The worker.register config of a class: JSON text of {"inports": ...,
    # "outports": ...} with the ports it declares, nil when it declares none.
    def config(mod)
      parts = %i[inports outports].filter_map do |dir|
        next unless mod.respond_to?(dir)

        "#{JSON.generate(dir.to_s)}:#{Convert.ports(mod.public_send(dir), "#{mod}.#{dir}")}"
      end
      parts.empty? ? nil : "{#{parts.join(",")}}"
    end

    # The class name a job of klass (a Module or a name) carries.
    def name_of(klass)
      return klass.to_s unless klass.is_a?(Module)

      klass.name or raise ArgumentError, "#{klass.inspect} is anonymous: a job class needs a name"
    end

    # [[name, config or nil]] of the tree classes loaded in this process
    # that the worker's lookup of their name finds (Worker.job_class), by
    # name. Classes the allow-list leaves out are dropped by the engine.
    def loaded
      ObjectSpace.each_object(Module).filter_map do |mod|
        name = mod.name
        next unless name && tree_class?(mod) && found?(name, mod)

        [name, config(mod)]
      end.sort_by(&:first)
    end

    def found?(name, mod)
      Worker.job_class(name).equal?(mod)
    rescue NameError, TypeError
      false
    end
  end
end
