# frozen_string_literal: true

module Qless
  # Tree classes (jobtrees.md §9.1): job classes (they have .perform) that
  # declare ports with .inports / .outports or have .startup(job) /
  # .shutdown(job) hooks.
  module TreeClass
    HOOKS = %i[inports outports startup shutdown].freeze

    module_function

    def tree_class?(mod) = mod.respond_to?(:perform) && HOOKS.any? { |hook| mod.respond_to?(hook) }

    # The worker.register config of a class (JSON text), nil when it declares no ports.
    def config(mod)
      parts = %i[inports outports].filter_map do |dir|
        next unless mod.respond_to?(dir)

        "#{JSON.generate(dir.to_s)}:#{Convert.ports(mod.public_send(dir), "#{mod}.#{dir}")}"
      end
      parts.empty? ? nil : "{#{parts.join(",")}}"
    end

    def name_of(klass)
      return klass.to_s unless klass.is_a?(Module)

      klass.name or raise ArgumentError, "#{klass.inspect} is anonymous: a job class needs a name"
    end

    # [[name, config or nil]] of the loaded tree classes that
    # Worker.job_class finds by their name (the engine applies the allow-list).
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
